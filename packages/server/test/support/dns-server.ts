// A local DNS server (the dns2 package) whose records a test sets and removes, for the custom
// domain checks: the app's DNS_SERVERS points at it. It answers like an authoritative server:
// NXDOMAIN for a name with no records at all, an empty answer (NODATA) for a name with records
// of other types, SERVFAIL for names a test marks as failing.
import dns2 from 'dns2';

const { Packet } = dns2;
// RFC 1035 4.1.1 response codes.
const SERVFAIL = 2;
const NXDOMAIN = 3;

export type RecordType = 'A' | 'CNAME' | 'TXT' | 'CAA';
export interface CaaRecord {
  flags?: number;
  tag: 'issue' | 'issuewild' | 'iodef';
  value: string;
}
type Values = { A: string[]; CNAME: string[]; TXT: string[]; CAA: CaaRecord[] };

export class TestDns {
  readonly #records = new Map<string, Partial<Values>>();
  readonly #failing = new Set<string>();
  readonly #server = dns2.createServer({ udp: true, handle: (request, send) => send(this.#answer(request)) });
  /** Every question asked, as `TYPE name`. */
  readonly asked: string[] = [];
  port = 0;

  /** @param port 0 for a free one (tests); the walkthrough takes a fixed one the server was told. */
  async start(port = 0): Promise<this> {
    const failed = new Promise<never>((_, reject) => this.#server.once('error', reject));
    const addresses = await Promise.race([this.#server.listen({ udp: { port, address: '127.0.0.1' } }), failed]);
    this.port = (addresses.udp as { port: number }).port;
    return this;
  }

  /** The value of DNS_SERVERS that reaches this server. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  set<T extends RecordType>(name: string, type: T, values: Values[T]): void {
    const key = name.toLowerCase();
    this.#records.set(key, { ...this.#records.get(key), [type]: values });
  }

  remove(name: string, type?: RecordType): void {
    const key = name.toLowerCase();
    if (!type) return void this.#records.delete(key);
    const entry = { ...this.#records.get(key) };
    delete entry[type];
    if (Object.keys(entry).length) this.#records.set(key, entry);
    else this.#records.delete(key);
  }

  /** Lookups of this name answer SERVFAIL until `failing(name, false)`. */
  failing(name: string, on = true): void {
    if (on) this.#failing.add(name.toLowerCase());
    else this.#failing.delete(name.toLowerCase());
  }

  /** The two records a custom domain needs, as the owner adds them at their DNS provider. */
  addDomainRecords(domain: { domain: string; txt_name: string; txt_value: string; cname_target: string }): void {
    this.set(domain.domain, 'CNAME', [domain.cname_target]);
    this.set(domain.txt_name, 'TXT', [domain.txt_value]);
  }

  close(): Promise<void> {
    return this.#server.close() as Promise<void>;
  }

  #answer(request: dns2.Packet) {
    const response = Packet.createResponseFromRequest(request);
    const question = request.questions[0];
    if (!question) return response;
    const name = question.name.toLowerCase();
    const typeName = (Object.entries(Packet.TYPE).find(([, code]) => code === question.type)?.[0] ?? String(question.type)) as RecordType;
    this.asked.push(`${typeName} ${name}`);
    if (this.#failing.has(name)) {
      response.header.rcode = SERVFAIL;
      return response;
    }
    const entry = this.#records.get(name);
    if (!entry) {
      response.header.rcode = NXDOMAIN;
      return response;
    }
    const base = { name: question.name, type: question.type, class: Packet.CLASS.IN, ttl: 1 };
    // Plain records: the packet's encoder reads these fields (its Resource type wants a toBuffer it never calls).
    const add = (fields: Record<string, unknown>) => response.answers.push({ ...base, ...fields } as unknown as dns2.Packet.Resource);
    if (typeName === 'A') for (const address of entry.A ?? []) add({ address });
    if (typeName === 'CNAME') for (const domain of entry.CNAME ?? []) add({ domain });
    if (typeName === 'TXT') for (const data of entry.TXT ?? []) add({ data });
    if (typeName === 'CAA') for (const record of entry.CAA ?? []) add({ flags: record.flags ?? 0, tag: record.tag, value: record.value });
    return response;
  }
}

export async function startTestDns(port = 0): Promise<TestDns> {
  return new TestDns().start(port);
}
