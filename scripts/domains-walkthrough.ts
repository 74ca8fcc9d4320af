// A custom domain end to end against a running server (issue 17), as a new owner would try it:
//
//   DNS_SERVERS=127.0.0.1:5399 npm start                   # in one terminal
//   (with PLATFORM_PLANS_FILE=packages/server/platform-plans.json to walk the priced catalogue's
//   purchase of a plan with custom domains; without it the self-hosted plan includes them)
//   node --import tsx scripts/domains-walkthrough.ts        # in another (GATEHOUSE=http://localhost:8080)
//
// The script is the owner's DNS provider: it serves the records of the domain on a local DNS
// server (the dns2 package) at 127.0.0.1:$DNS_PORT (5399 unless set), which is why the server must
// be started with DNS_SERVERS pointing there. An owner signs up, registers an API, buys the starter
// plan on the development payments provider (custom domains are not in the free plan), sets a
// domain, adds the CNAME and TXT records the console asks for, checks, and fetches the discovery
// document with the domain's Host header, as the TLS-terminating proxy would send it: its issuer
// must be https://<domain>. Exits 1 on any mismatch.
import { request } from 'node:http';
import { startTestDns, type TestDns } from '../packages/server/test/support/dns-server.js';

const G = process.env.GATEHOUSE ?? 'http://localhost:8080';
const DNS_PORT = Number(process.env.DNS_PORT ?? 5399);
const cookies = new Map<string, string>();
const step = (text: string) => console.log(`- ${text}`);
const tag = Math.random().toString(36).slice(2, 8);
const port = new URL(G).port;
const startCommand = `DATA_DIR=$(mktemp -d)${port && port !== '8080' ? ` PORT=${port}` : ''} DNS_SERVERS=127.0.0.1:${DNS_PORT} npm start`;

function fail(message: string): never {
  console.error(`FAILED: ${message}`);
  process.exit(1);
}

function keepCookies(response: Response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    cookies.set(pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1));
  }
}
const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');

async function consoleCall(method: string, path: string, body?: unknown) {
  const response = await fetch(`${G}/api${path}`, {
    method,
    headers: { 'x-requested-with': 'walkthrough', cookie: cookieHeader(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  keepCookies(response);
  const json = await response.json().catch(() => null);
  if (!response.ok) fail(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json as any;
}

/** The newest six-digit code mailed to `to`, from the dev outbox. */
async function mailedCode(to: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const { mails } = (await (await fetch(`${G}/dev/mail.json`)).json()) as { mails: { to: string; text: string }[] };
    const code = mails.filter((mail) => mail.to === to).at(-1)?.text.match(/\b\d{6}\b/)?.[0];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  fail(`no code mailed to ${to} (is ${G} a server started with npm start, without SMTP_URL?)`);
}

/** GET with a Host header of our choosing (fetch does not let one set it), as curl -H 'Host: …' does. */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

// The owner's DNS provider, on the port the server was told.
let dns: TestDns;
try {
  dns = await startTestDns(DNS_PORT);
} catch (error) {
  fail(`cannot serve DNS on 127.0.0.1:${DNS_PORT} (${(error as Error).message}); choose another port with DNS_PORT=… and start the server with DNS_SERVERS=127.0.0.1:<that port>`);
}
console.log(`The server must run with DNS_SERVERS=${dns.address}, for example:\n  ${startCommand}\n`);
try {
  const ready = await fetch(`${G}/readyz`).catch(() => null);
  if (!ready?.ok) fail(`no server answers at ${G}; start it with:\n  ${startCommand}`);

  const owner = `owner-${tag}@example.com`;
  await consoleCall('POST', '/auth/signup', { email: owner });
  const { ticket } = await consoleCall('POST', '/auth/signup/verify', { email: owner, code: await mailedCode(owner) });
  const { workspace_id: ws } = await consoleCall('POST', '/auth/signup/complete', { ticket, name: 'Dana Owner', password: 'correct horse battery' });
  const { api } = await consoleCall('POST', `/workspaces/${ws}/apis`, { name: `Weather ${tag}` });
  step(`owner ${owner} registered ${api.name}; its portal host and issuer: ${api.portal_url}`);

  const domain = process.env.DOMAIN ?? `login.weather-${tag}.example`;
  if (api.plan.custom_domain) {
    // A Gatehouse without a priced catalogue (PLATFORM_PLANS_FILE unset): the self-hosted plan has them.
    step(`on the ${api.plan.name} plan custom domains are included`);
  } else {
    // Custom domains come with a paid platform plan: free answers 402.
    const refused = await fetch(`${G}/api/apis/${api.id}/domain`, { method: 'PUT', headers: { 'x-requested-with': 'walkthrough', 'content-type': 'application/json', cookie: cookieHeader() }, body: JSON.stringify({ domain }) });
    if (refused.status !== 402) fail(`on the free plan, setting a domain should answer 402, got ${refused.status}`);
    step('on the free plan, PUT /domain answers 402: custom domains need a paid plan');

    // Buy the starter plan on the development provider's test checkout page: one click on "Pay".
    const { url } = await consoleCall('POST', `/apis/${api.id}/plan/checkout`, { plan_code: 'starter' });
    const page = await fetch(url, { headers: { cookie: cookieHeader() } });
    keepCookies(page);
    const form = await page.text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(form)?.[1];
    if (!csrf) fail(`the checkout page at ${url} has no form (is the development payments provider on?)`);
    const paid = await fetch(url, { method: 'POST', redirect: 'manual', headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, outcome: 'pay' }).toString() });
    if (paid.status !== 303) fail(`paying on the checkout page answered ${paid.status}`);
    let plan = '';
    for (let attempt = 0; attempt < 40 && plan !== 'starter'; attempt++) {
      plan = (await consoleCall('GET', `/apis/${api.id}`)).plan.code;
      if (plan !== 'starter') await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (plan !== 'starter') fail(`the API is still on ${plan} after paying for starter`);
    step('bought the starter plan on the test checkout page');
  }

  const set = await consoleCall('PUT', `/apis/${api.id}/domain`, { domain });
  step(`set the domain ${set.domain}: ${set.status}; add a CNAME to ${set.cname_target} and a TXT record at ${set.txt_name} holding ${set.txt_value}`);

  const early = await consoleCall('POST', `/apis/${api.id}/domain/check`);
  if (!dns.asked.some((question) => question.endsWith(set.txt_name))) {
    fail(`the server did not ask this script's DNS server (it answered: ${early.error}); restart it with DNS_SERVERS=${dns.address}:\n  ${startCommand}`);
  }
  step(`checked before adding the records: ${early.status} (${early.error})`);

  dns.addDomainRecords(set);
  const checked = await consoleCall('POST', `/apis/${api.id}/domain/check`);
  if (checked.status !== 'active') fail(`after adding the records the domain is ${checked.status}: ${checked.error}`);
  step(`added the two records and checked: ${checked.status} (checked at ${checked.checked_at})`);

  const tls = await fetch(`${G}/internal/tls/allowed?domain=${encodeURIComponent(domain)}`);
  if (tls.status !== 200) fail(`the TLS ask for ${domain} answered ${tls.status}`);
  step(`the proxy may get a certificate: GET /internal/tls/allowed?domain=${domain} answers 200`);

  const discovery = await getWithHost(`${G}/.well-known/openid-configuration`, domain);
  if (discovery.status !== 200) fail(`discovery with Host: ${domain} answered ${discovery.status}: ${discovery.body.slice(0, 200)}`);
  const issuer = (JSON.parse(discovery.body) as { issuer: string }).issuer;
  step(`curl -H 'Host: ${domain}' ${G}/.well-known/openid-configuration  →  issuer ${issuer}`);
  if (issuer !== `https://${domain}`) fail(`expected the issuer https://${domain}, got ${issuer}`);

  const portal = await getWithHost(`${G}/.well-known/openid-configuration`, new URL(api.portal_url).host);
  const portalIssuer = (JSON.parse(portal.body) as { issuer: string }).issuer;
  if (portalIssuer !== api.portal_url) fail(`the portal host's issuer changed: ${portalIssuer}`);
  step(`the portal host keeps its own issuer: ${portalIssuer}`);
  console.log('OK');
} finally {
  await dns.close();
}
