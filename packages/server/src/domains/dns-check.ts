import { Resolver } from 'node:dns/promises';

/**
 * What the DNS says about a custom domain, as a check reads it:
 * - `active`: the TXT record proves ownership, the name points at the CNAME target, and no CAA
 *   record keeps the certificate authorities the proxy uses from issuing for it;
 * - `verified`: proven and pointed at us, but CAA forbids those authorities (`error` says so);
 * - `wrong`: a record is missing or wrong (`error` says which): a definite answer;
 * - `unknown`: a lookup failed (timeout, SERVFAIL), so nothing can be concluded (`error` says which).
 */
export type DnsVerdict =
  | { kind: 'active' }
  | { kind: 'verified'; error: string }
  | { kind: 'wrong'; error: string }
  | { kind: 'unknown'; error: string };

/** What one domain must show: the TXT record of its claim and where it must point. */
export interface DnsExpectation {
  domain: string;
  txtName: string;
  txtValue: string;
  cnameTarget: string;
}

/** The DNS lookups a check makes; tests point them at a local DNS server through DNS_SERVERS. */
export interface DnsLookups {
  inspect(expected: DnsExpectation): Promise<DnsVerdict>;
}

/** Answers that are a definite "there is no such record"; anything else is a failed lookup. */
const ABSENT = new Set(['ENODATA', 'ENOTFOUND']);

type Lookup<T> = { found: T } | { absent: true; code: string } | { failed: string };

async function lookup<T>(run: () => Promise<T>): Promise<Lookup<T>> {
  try {
    return { found: await run() };
  } catch (error) {
    const code = String((error as NodeJS.ErrnoException).code ?? 'ERROR');
    return ABSENT.has(code) ? { absent: true, code } : { failed: code };
  }
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** node:dns with the servers of DNS_SERVERS (the system's when empty). */
export class DnsChecker implements DnsLookups {
  readonly #resolver: Resolver;

  /**
   * @param servers `ip` or `ip:port` (IPv6 as `[ip]:port`); empty uses the system's resolvers.
   * @param caaIssuers the CAA issuer domains of the authorities the proxy gets certificates from.
   */
  constructor(servers: string[], private readonly caaIssuers: string[]) {
    // Three seconds, two tries per lookup: a check stays well under a console request's patience.
    this.#resolver = new Resolver({ timeout: 3000, tries: 2 });
    if (servers.length) this.#resolver.setServers(servers);
  }

  async inspect(expected: DnsExpectation): Promise<DnsVerdict> {
    const [txt, cname] = await Promise.all([this.#txtProblem(expected), this.#cnameProblem(expected)]);
    const failed = [txt, cname].filter((p): p is { failed: string } => p !== null && 'failed' in p);
    const wrong = [txt, cname].filter((p): p is { wrong: string } => p !== null && 'wrong' in p);
    if (wrong.length) return { kind: 'wrong', error: [...wrong.map((p) => p.wrong), ...failed.map((p) => p.failed)].join(' ') };
    if (failed.length) return { kind: 'unknown', error: failed.map((p) => p.failed).join(' ') };
    const caa = await this.#caaProblem(expected.domain);
    if (caa && 'failed' in caa) return { kind: 'unknown', error: caa.failed };
    if (caa) return { kind: 'verified', error: caa.wrong };
    return { kind: 'active' };
  }

  async #txtProblem({ txtName, txtValue }: DnsExpectation): Promise<{ wrong: string } | { failed: string } | null> {
    const answer = await lookup(() => this.#resolver.resolveTxt(txtName));
    if ('failed' in answer) return { failed: `The TXT lookup of ${txtName} failed (${answer.failed}).` };
    if ('absent' in answer) return { wrong: `The TXT record at ${txtName} is missing: add one with the value ${txtValue}.` };
    // A long TXT value may come in several strings of one record (RFC 1035 3.3.14): they are one.
    const values = answer.found.map((chunks) => chunks.join(''));
    if (values.includes(txtValue)) return null;
    return { wrong: `The TXT record at ${txtName} is wrong: it holds ${values.map((v) => JSON.stringify(v)).join(', ')}, not ${txtValue}.` };
  }

  async #cnameProblem({ domain, cnameTarget }: DnsExpectation): Promise<{ wrong: string } | { failed: string } | null> {
    const answer = await lookup(() => this.#resolver.resolveCname(domain));
    if ('failed' in answer) return { failed: `The CNAME lookup of ${domain} failed (${answer.failed}).` };
    if ('found' in answer) {
      const targets = answer.found.map(bare);
      if (targets.includes(cnameTarget)) return null;
      return { wrong: `The CNAME record of ${domain} is wrong: it points at ${targets.join(', ')}, not ${cnameTarget}.` };
    }
    const missing = { wrong: `The CNAME record of ${domain} is missing: point it at ${cnameTarget}.` };
    // NXDOMAIN: the name has no records at all. NODATA: it has others, perhaps the addresses of
    // the target flattened into A records (an apex domain's ALIAS or ANAME), which count alike.
    if (answer.code !== 'ENODATA') return missing;
    const [own, target] = await Promise.all([lookup(() => this.#resolver.resolve4(domain)), lookup(() => this.#resolver.resolve4(cnameTarget))]);
    if ('failed' in own) return { failed: `The address lookup of ${domain} failed (${own.failed}).` };
    if (!('found' in own)) return missing;
    if ('failed' in target) return { failed: `The address lookup of ${cnameTarget} failed (${target.failed}).` };
    const targetAddresses = new Set('found' in target ? target.found : []);
    if (own.found.length && own.found.every((address) => targetAddresses.has(address))) return null;
    return { wrong: `${domain} has no CNAME record and its addresses (${own.found.join(', ')}) are not those of ${cnameTarget}: point it at ${cnameTarget} with a CNAME record.` };
  }

  /**
   * RFC 8659 3: the CAA set that applies is the first non-empty one climbing from the name toward
   * the root; when it has `issue` properties, one must name an authority we use.
   */
  async #caaProblem(domain: string): Promise<{ wrong: string } | { failed: string } | null> {
    const labels = domain.split('.');
    for (let i = 0; i < labels.length; i++) {
      const name = labels.slice(i).join('.');
      const answer = await lookup(() => this.#resolver.resolveCaa(name));
      if ('failed' in answer) return { failed: `The CAA lookup of ${name} failed (${answer.failed}).` };
      if (!('found' in answer) || answer.found.length === 0) continue;
      const issuers = answer.found.filter((record) => record.issue !== undefined).map((record) => bare(String(record.issue).split(';')[0]!.trim()));
      if (issuers.length === 0 || issuers.some((issuer) => this.caaIssuers.includes(issuer))) return null;
      return { wrong: `The CAA records of ${name} allow certificates only from ${issuers.filter(Boolean).join(', ') || 'no one'}; add a CAA record allowing ${this.caaIssuers.join(' or ')}.` };
    }
    return null;
  }
}
