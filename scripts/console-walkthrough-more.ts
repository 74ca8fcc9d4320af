// The console walkthrough's second half (issue 29): the sign-in service set up on the console's pages
// and used by openid-client, a webhook endpoint added on its page that receives a signed
// customer.created, and a custom domain whose records this script serves from its own DNS server,
// watched to `active` on the page. Called by console-walkthrough.ts with its signed-in page.
import type { IncomingHttpHeaders } from 'node:http';
import * as client from 'openid-client';
import type { BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { startTestDns, type TestDns } from '../packages/server/test/support/dns-server.js';
import { tenantFetch } from '../packages/server/test/support/issuer.js';
import { TenantBrowser } from '../packages/server/test/support/tenant-client.js';
import { expect, G, listen, mailedCode, sleep, step, tag } from './walkthrough-kit.js';

export interface Walk {
  page: Page;
  context: BrowserContext;
  apiId: string;
  portalUrl: string;
  read(path: string): Promise<any>;
  shot(name: string): Promise<unknown>;
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, withinMs = 30_000): Promise<T> {
  const end = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`waited ${withinMs / 1000} s for ${what}`);
    await sleep(200);
  }
}

/** A web app, a server with a permission and a role, all on the sign-in pages; then a person signs in with openid-client. */
export async function signInService(w: Walk): Promise<void> {
  const { page } = w;
  await nav(page, 'Sign-in apps');
  const appForm = page.getByRole('form', { name: 'Add an app' });
  const redirectUri = 'https://app.example/callback';
  await appForm.getByLabel('Name', { exact: true }).fill('Weather Web');
  await appForm.getByLabel('Redirect URIs').fill(redirectUri);
  await appForm.getByLabel('Sign-out URIs').fill('https://app.example/');
  await appForm.getByRole('button', { name: 'Add app' }).click();
  const appSecret = ((await page.getByTestId('client-secret').textContent()) ?? '').trim();
  const apps = (await w.read(`/apis/${w.apiId}/signin/apps`)).apps as { id: string; name: string; kind: string; redirect_uris: string[] }[];
  const app = apps.find((a) => a.name === 'Weather Web');
  expect('the web app added on the apps page', app && { kind: app.kind, redirect_uris: app.redirect_uris }, { kind: 'web', redirect_uris: [redirectUri] });
  await page.getByTestId(`app-${app!.id}`).getByText(app!.id).waitFor();
  await w.shot('7-signin-app-secret');
  await page.getByRole('button', { name: 'I have copied it' }).click();

  await nav(page, 'Servers');
  const serverForm = page.getByRole('form', { name: 'Add a server' });
  await serverForm.getByLabel('Name', { exact: true }).fill('Forecasts');
  await serverForm.getByLabel('Resource URL').fill('https://api.example/forecasts');
  await serverForm.getByRole('button', { name: 'Add a permission' }).click();
  await serverForm.getByLabel('Permission 1 name').fill('read:forecast');
  await serverForm.getByLabel('Permission 1 description').fill('Read forecasts');
  await serverForm.getByRole('button', { name: 'Add server' }).click();
  const serverClientId = ((await page.getByTestId('server-client-id').textContent()) ?? '').trim();
  const servers = (await w.read(`/apis/${w.apiId}/signin/servers`)).servers as { client_id: string; resource_url: string }[];
  expect('the server added on the servers page', servers.map((s) => s.client_id), [serverClientId]);
  expect('its client ID is an rs_ credential', /^rs_/.test(serverClientId), true);
  await w.shot('8-signin-server-secret');

  await nav(page, 'Roles');
  await page.getByRole('button', { name: 'New role' }).click();
  const roleForm = page.getByRole('form', { name: 'Add a role' });
  await roleForm.getByLabel('Name', { exact: true }).fill('Forecaster');
  await roleForm.getByLabel('Description', { exact: true }).fill('Reads forecasts');
  await roleForm.getByRole('checkbox', { name: /read:forecast/ }).check();
  await roleForm.getByRole('button', { name: 'Add role' }).click();
  const roles = await until('the role to be stored', async () => {
    const listed = (await w.read(`/apis/${w.apiId}/signin/roles`)).roles as { name: string; permissions: { permission: string }[] }[];
    return listed.length ? listed : undefined;
  });
  expect('the role added on the roles page', roles.map((r) => [r.name, r.permissions.map((p) => p.permission)]), [['Forecaster', ['read:forecast']]]);
  step(`sign-in pages: web app ${app!.id} with its secret shown once, server ${serverClientId} with read:forecast, role Forecaster`);

  // openid-client, as the owner's web app would: discovery, PAR, the person signs up on the
  // sign-in pages with the mailed code, consents, and the code is exchanged.
  const fetchOptions = { [client.customFetch]: (url: string, init: RequestInit) => tenantFetch(url, init), execute: [client.allowInsecureRequests] };
  const config = await client.discovery(new URL(w.portalUrl), app!.id, { redirect_uris: [redirectUri] }, client.ClientSecretBasic(appSecret), fetchOptions as never);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const authorizationUrl = await client.buildAuthorizationUrlWithPAR(config, {
    redirect_uri: redirectUri, scope: 'openid profile email', state, nonce, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
  });
  const browser = new TenantBrowser(w.portalUrl);
  const signin = await browser.get(authorizationUrl.href);
  const signupLink = /id="to-signup" href="([^"]+)"/.exec(signin.html)![1]!.replace(/&amp;/g, '&');
  const signup = await browser.get(signupLink);
  const person = `person-${tag}@example.com`;
  const codePage = await browser.submit(signup, 'signup-send', { email: person });
  const consent = await browser.submit(codePage, 'signup-complete', { code: await mailedCode(person, /sign-up code/), name: 'Pat Person', password: 'a long enough secret' });
  const back = await browser.submit(consent, 'consent-allow');
  if (!back.leftTo) throw new Error(`expected the redirect to the app, got ${back.status}`);
  const tokens = await client.authorizationCodeGrant(config, back.leftTo, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
  expect('the ID token names the person who signed in', tokens.claims()!.email, person);
  expect('the ID token was issued by the API\'s issuer', tokens.claims()!.iss, config.serverMetadata().issuer);
  step(`openid-client signed ${person} in at ${config.serverMetadata().issuer} with the app from the page (PAR, PKCE, consent, code exchange)`);

  // The person is listed on the people page.
  await page.goto(`${G}/apis/${w.apiId}/signin/people`);
  await page.getByText(person).first().waitFor();
  await w.shot('9-signin-people');
}

/** A webhook endpoint added on the webhooks page; a customer added on the customers page reaches it signed. */
export async function webhooks(w: Walk): Promise<void> {
  const { page } = w;
  const receiver = await listen();
  const received: { type: string; valid: boolean; id: string | undefined }[] = [];
  let secret = '';
  receiver.server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let valid = false;
      try {
        new Webhook(secret).verify(raw, req.headers as IncomingHttpHeaders & Record<string, string>);
        valid = true;
      } catch {
        // kept as not valid
      }
      const body = JSON.parse(raw || '{}') as { type?: string; data?: { object?: { id?: string } } };
      received.push({ type: String(body.type), valid, id: body.data?.object?.id });
      res.writeHead(valid ? 204 : 400).end();
    });
  });
  try {
    await nav(page, 'Webhooks');
    const form = page.getByRole('form', { name: 'Add an endpoint' });
    await form.getByLabel('Endpoint URL').fill(receiver.url);
    await form.getByLabel('Description').fill('Billing system');
    await form.getByLabel('customer.created').check();
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    secret = ((await page.getByTestId('webhook-secret').textContent()) ?? '').trim();
    expect('the endpoint\'s secret is shown once, as whsec_…', /^whsec_/.test(secret), true);
    await w.shot('10-webhook-secret');
    await page.getByRole('button', { name: 'I have copied it' }).click();

    await nav(page, 'Customers');
    await page.getByLabel('Name', { exact: true }).fill('Globex');
    await page.getByLabel('E-mail', { exact: true }).fill(`ops-${tag}@globex.example`);
    await page.getByRole('button', { name: 'Add customer' }).click();
    await page.waitForURL(/\/customers\/cus_/);
    const customerId = /\/customers\/(cus_[^/?]+)/.exec(page.url())![1]!;
    const delivery = await until('customer.created at the receiver', () => received.find((d) => d.type === 'customer.created' && d.id === customerId));
    expect('customer.created verified with the secret from the page (standardwebhooks)', delivery.valid, true);
    const deliveries = (await w.read(`/apis/${w.apiId}/webhooks`)).webhooks as { id: string }[];
    expect('one endpoint registered', deliveries.length, 1);
    await page.goto(`${G}/apis/${w.apiId}/webhooks/${deliveries[0]!.id}`);
    // The deliveries table lists the one that reached the receiver, succeeded.
    const listed = await until('the delivery in the console API', async () => {
      const found = ((await w.read(`/apis/${w.apiId}/webhooks/${deliveries[0]!.id}/deliveries`)).deliveries as { id: string; event_type: string; status: string }[])
        .find((d) => d.event_type === 'customer.created' && d.status === 'succeeded');
      return found;
    });
    await page.getByTestId(`delivery-${listed.id}`).getByText('succeeded').first().waitFor();
    await w.shot('11-webhook-deliveries');
    step(`webhook endpoint ${receiver.url} added on its page; customer ${customerId} added on the customers page arrived as customer.created, signature verified`);
  } finally {
    receiver.server.close();
  }
}

/** A custom domain set on its page; this script serves its records; the page shows it active. */
export async function customDomain(w: Walk, dnsPort: number): Promise<void> {
  const { page } = w;
  let dns: TestDns;
  try {
    dns = await startTestDns(dnsPort);
  } catch (error) {
    throw new Error(`cannot serve DNS on 127.0.0.1:${dnsPort} (${(error as Error).message}); choose another with DNS_PORT=… and start the server with DNS_SERVERS=127.0.0.1:<that port>`);
  }
  try {
    await nav(page, 'Custom domain');
    const domain = `login-${tag}.acme-example.com`;
    const form = page.getByRole('form', { name: 'Set a domain' });
    await form.getByLabel('Domain').fill(domain);
    await form.getByRole('button', { name: 'Set domain' }).click();
    await page.getByTestId('domain-state').getByText('pending').waitFor();
    const set = await w.read(`/apis/${w.apiId}/domain`) as { domain: string; txt_name: string; txt_value: string; cname_target: string };
    expect('the domain stored', set.domain, domain);
    await page.getByTestId('cname-record').getByText(set.cname_target, { exact: true }).waitFor();
    await page.getByTestId('txt-record').getByText(set.txt_value, { exact: true }).waitFor();
    await w.shot('12-domain-records');
    dns.addDomainRecords(set);
    await page.getByRole('button', { name: 'Check now' }).click();
    try {
      await page.getByTestId('domain-state').getByText('active').waitFor({ timeout: 20_000 });
    } catch {
      if (!dns.asked.some((question) => question.endsWith(set.txt_name))) {
        throw new Error(`the server did not ask this script's DNS server; start it with DNS_SERVERS=${dns.address}`);
      }
      throw new Error(`the domain page did not reach active: ${(await page.getByTestId('domain-state').textContent()) ?? ''}`);
    }
    expect('the console API agrees: active', (await w.read(`/apis/${w.apiId}/domain`)).status, 'active');
    await w.shot('13-domain-active');
    step(`custom domain ${domain}: the page's CNAME and TXT records served by this script's DNS at ${dns.address}; "Check now" took it to active`);
  } finally {
    await dns.close();
  }
}
