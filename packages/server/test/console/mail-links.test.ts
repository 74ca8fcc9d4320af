// No link in a mail the service sends answers 404 (issue 12, "Done when"). Every mail template of
// every `mails.ts` is triggered for real, as a person or an owner would (the mail goes through
// the outbox over real SMTP into the test's smtp-server); every http(s) link of its text and HTML
// parts is requested as a browser would, following redirects; no answer on the way may be a 404
// or a 5xx. A template this test does not trigger fails it, so a new mail cannot slip by.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { rateRules } from '../../src/accounts/limits.js';
import { remindExpiringKeys } from '../../src/end-user-keys/reminders.js';
import { assertActive, createKey, keyHolder, patchKeySettings } from '../support/end-user-keys.js';
import { wrongTotp } from '../support/codes.js';
import { enableTwoFactor, PASSWORD, signUp, uniqueEmail } from '../support/flows.js';
import { startIssuer, tenantFetch, webRequest, type IssuerFixture } from '../support/issuer.js';
import type { ReceivedMail } from '../support/mailbox.js';
import { expectPage, followLink, freshEmail, personWithPassword, signUpWithCode } from '../support/pages.js';
import { portalVisitor } from '../support/portal.js';
import { checkoutUrlOf, clickDevCheckout, connectDevPayments } from '../support/portal-payments.js';
import { TenantBrowser, type Page } from '../support/tenant-client.js';
import { sendInvite } from '../support/workspaces.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');

let f: IssuerFixture;
before(async () => (f = await startIssuer('Links API')));
after(() => f.t.close());

/** Every file under src/ whose name is `name`, as paths relative to src/. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}

/** Every mail template: `<folder>.<export>` of each mails.ts (`accounts.signupCode`, `issuer/people.noAccount`). */
async function mailTemplates(): Promise<string[]> {
  const names: string[] = [];
  for (const file of sourceFiles().filter((path) => path.endsWith('/mails.ts'))) {
    // By its .js name, as the sources import it: tsx finds the .ts, a compiled run its output.
    const module = (await import(pathToFileURL(join(SRC, file.replace(/\.ts$/, '.js'))).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) if (typeof value === 'function') names.push(`${dirname(file)}.${name}`);
  }
  return names.sort();
}

// --- Triggers: each makes the service send one template's mail, and answers the mail. ---

const consoleClient = () => f.t.client();

/** The newest mail to `to` whose subject matches, after every earlier one was taken out. */
async function mailFrom(to: string, subject: RegExp, send: () => Promise<unknown>): Promise<ReceivedMail> {
  f.t.mail.take(to);
  await send();
  return f.t.mail.waitFor(to, subject);
}

async function consolePost(path: string, body: unknown) {
  const answer = await consoleClient().post(path, body);
  assert.equal(answer.status, 200, `${path}: ${answer.text}`);
}

/** An authorization of the API's web app, on the sign-in page; the page to sign up from if asked. */
async function signinPage(signup = false): Promise<{ browser: TenantBrowser; page: Page }> {
  const browser = new TenantBrowser(f.issuer);
  const page = expectPage(await browser.authorize(webRequest(f).params), /^Sign in$/);
  return { browser, page: signup ? expectPage(await followLink(browser, page, 'to-signup'), /Create your account/) : page };
}

async function setSignupMode(mode: 'open' | 'approval') {
  const answer = await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: mode });
  assert.equal(answer.status, 200, answer.text);
}

/** A customer waiting for approval: a person signed up on the API's pages in approval mode. */
async function pendingCustomer(label: string): Promise<{ email: string; id: string }> {
  await setSignupMode('approval');
  const email = freshEmail(label);
  const { browser, page } = await signinPage(true);
  await signUpWithCode(f, browser, page, email, 'Pending Person');
  await setSignupMode('open');
  const list = await f.owner.client.get(`/apis/${f.apiId}/customers?status=pending&q=${encodeURIComponent(email)}`);
  assert.equal(list.status, 200, list.text);
  return { email, id: list.body.customers[0].id };
}

async function decide(customerId: string, status: 'active' | 'suspended') {
  const answer = await f.owner.client.patch(`/apis/${f.apiId}/customers/${customerId}`, { status });
  assert.equal(answer.status, 200, answer.text);
}

const triggers: Record<string, () => Promise<ReceivedMail>> = {
  'accounts.signupCode': () => {
    const email = uniqueEmail('signup');
    return mailFrom(email, /sign-up code/, () => consolePost('/auth/signup', { email }));
  },
  'accounts.alreadyRegistered': () => mailFrom(f.owner.email, /already have a Gatehouse account/, () => consolePost('/auth/signup', { email: f.owner.email })),
  'accounts.resetCode': () => mailFrom(f.owner.email, /password reset code/, () => consolePost('/auth/password/forgot', { email: f.owner.email })),
  'accounts.secondFactorPaused': async () => {
    const person = await signUp(f.t, { email: uniqueEmail('paused') });
    const { secret } = await enableTwoFactor(f.t, person.client);
    return mailFrom(person.email, /paused/, async () => {
      // The per-account allowance of wrong second-factor codes, spent over challenges of 5 tries.
      for (let wrong = 0; wrong < rateRules.secondFactorFailuresPerUser.points; wrong++) {
        const client = consoleClient();
        const login = await client.post('/auth/login', { email: person.email, password: PASSWORD });
        assert.equal(login.status, 200, login.text);
        const answer = await client.post('/auth/login/2fa', { challenge: login.body.challenge, code: wrongTotp(f.t, secret) });
        assert.equal(answer.status, 401, answer.text);
      }
    });
  },
  'workspaces.invitation': async () => (await sendInvite(f.t, f.owner.client, f.owner.workspaceId, uniqueEmail('invitee'), 'viewer')).mail,
  'issuer/people.signinCode': async () => {
    const person = await personWithPassword(f);
    const { browser, page } = await signinPage();
    return mailFrom(person.email, /sign-in code/, () => browser.submit(page, 'signin-code', { email: person.email }));
  },
  'issuer/people.noAccount': async () => {
    const email = freshEmail('nobody');
    const { browser, page } = await signinPage();
    return mailFrom(email, /^Sign-in to Links API$/, () => browser.submit(page, 'signin-code', { email }));
  },
  'issuer/people.signupCode': async () => {
    const email = freshEmail('newperson');
    const { browser, page } = await signinPage(true);
    return mailFrom(email, /sign-up code/, () => browser.submit(page, 'signup-send', { email }));
  },
  'issuer/people.alreadyRegistered': async () => {
    const person = await personWithPassword(f);
    const { browser, page } = await signinPage(true);
    return mailFrom(person.email, /already have a Links API account/, () => browser.submit(page, 'signup-send', { email: person.email }));
  },
  'customers.approved': async () => {
    const { email, id } = await pendingCustomer('approved');
    return mailFrom(email, /is approved/, () => decide(id, 'active'));
  },
  'customers.declined': async () => {
    const { email, id } = await pendingCustomer('declined');
    return mailFrom(email, /was declined/, () => decide(id, 'suspended'));
  },
  // The owner invites an address to become a customer, from the console.
  'customers.becomeCustomer': () => {
    const email = freshEmail('become');
    return mailFrom(email, /You are invited to become a customer/, async () => {
      const answer = await f.owner.client.post(`/apis/${f.apiId}/customers/invite`, { email });
      assert.equal(answer.status, 200, answer.text);
    });
  },
  // A customer's owner invites a teammate, on the portal's team page.
  'customers.joinCustomer': async () => {
    const { browser } = await portalVisitor(f, { name: 'Tess Teamlead' });
    const email = freshEmail('teammate');
    return mailFrom(email, /You are invited to/, async () => {
      const sent = await browser.submit(expectPage(await browser.get('/team'), /^Team of /), 'send-invitation', { email, role: 'member' });
      assert.ok(sent.url.endsWith('/team?done=invited'), sent.html.slice(0, 300));
    });
  },
  // A customer's owner tops up on the portal's billing page and pays on the test checkout page.
  'payments.receipt': async () => {
    await connectPayments();
    const { person, browser } = await portalVisitor(f, { name: 'Rita Receipt' });
    return mailFrom(person.email, /Your receipt from/, async () => {
      const started = await browser.submit(expectPage(await browser.get('/billing'), /^Billing$/), 'topup-custom', { amount: '5.00' });
      assert.equal((await clickDevCheckout(checkoutUrlOf(f, started), 'pay')).status, 303);
    });
  },
  // A customer's owner saves a card that declines on the billing page and turns auto-recharge on;
  // the job's charge below the threshold fails.
  'payments.autoRechargeFailed': async () => {
    await connectPayments();
    const { person, browser } = await portalVisitor(f, { name: 'Fay Failing' });
    const customerId = (await f.t.services.customerMembers.membershipsOf(f.apiId, person.id))[0]!.customer_id;
    const saved = await clickDevCheckout(checkoutUrlOf(f, await browser.submit(expectPage(await browser.get('/billing'), /^Billing$/), 'save-card')), 'save_declining');
    assert.equal(saved.status, 303);
    const on = await browser.submit(expectPage(await browser.get('/billing'), /^Billing$/), 'auto-recharge-save', { enabled: 'on', threshold: '5.00', amount: '10.00' });
    assert.equal(on.status, 200, on.html.slice(0, 300));
    assert.equal((await f.owner.client.post(`/apis/${f.apiId}/customers/${customerId}/credit`, { amount_micro: -1, note: 'below the threshold' })).status, 200);
    return mailFrom(person.email, /automatic top-up .* failed/, () => f.t.services.payments.autoRecharge.chargeDue());
  },
  // A customer the owner added, whose own low-balance line (set in the console) is above its balance.
  'payments.lowBalance': async () => {
    const email = freshEmail('low');
    const made = await f.owner.client.post(`/apis/${f.apiId}/customers`, { name: 'Low Co', email });
    assert.equal(made.status, 200, made.text);
    assert.equal((await f.owner.client.patch(`/apis/${f.apiId}/customers/${made.body.id}`, { low_balance_micro: made.body.balance_micro + 1 })).status, 200);
    return mailFrom(email, /is low$/, () => f.t.services.payments.lowBalance.check());
  },
  // A person makes a key through an owner's web app (the account API): the mail links to the
  // portal's keys page.
  'end-user-keys.newKey': async () => {
    await keysOn();
    const holder = await keyHolder(f);
    return mailFrom(holder.person.email, /A new API key was created/, () => createKey(holder.api, f));
  },
  // A key that expires within 7 days and was used (introspected) is reminded by the job.
  'end-user-keys.expiryReminder': async () => {
    await keysOn();
    const holder = await keyHolder(f);
    const made = await createKey(holder.api, f, { expires_in_days: 7 });
    await assertActive(f, made.secret);
    return mailFrom(holder.person.email, /expires in 7 days/, () => remindExpiringKeys(f.t.services.db, f.t.clock, f.t.services.outbox, (slug) => f.t.services.apis.portalUrl(slug)));
  },
};

/** Turns end-user keys on once. */
let keysAreOn = false;
async function keysOn() {
  if (!keysAreOn) await patchKeySettings(f, { enabled: true });
  keysAreOn = true;
}

/** Connects the API's payments account once (the development provider). */
let paymentsConnected = false;
async function connectPayments() {
  if (!paymentsConnected) await connectDevPayments(f);
  paymentsConnected = true;
}

/** Templates this test does not trigger, each with the reason. */
const LEFT_OUT: Record<string, string> = {
  // Its trigger is a renewal a month on: the clock would move past the sessions the triggers after
  // it use. test/portal/portal-plans-past-due.test.ts takes its one link from the mail and pays the
  // invoice there.
  'payments.planPaymentFailed': 'sent a month on; its link is followed in test/portal/portal-plans-past-due.test.ts',
  // A day of retries, and 5 days of failure: the same clock problem. test/webhooks/delivery.test.ts
  // triggers both and follows their link (the endpoint's deliveries) as the workspace's owner.
  'webhooks.deliveriesExhausted': 'sent after 8 attempts over a day; its link is followed in test/webhooks/delivery.test.ts',
  'webhooks.endpointDisabled': 'sent after 5 days of failure; its link is followed in test/webhooks/delivery.test.ts',
  // The platform plan's own renewal failing, its grace running out and its end: a month on and
  // days after, the same clock problem. test/payments/platform-lifecycle.test.ts triggers all three.
  'payments.platformPastDue': 'sent when the platform plan\'s renewal fails; triggered in test/payments/platform-lifecycle.test.ts',
  'payments.platformGraceEnding': 'sent two days before the grace of an unpaid platform plan ends; triggered in test/payments/platform-lifecycle.test.ts',
  'payments.platformCanceled': 'sent when the platform plan ends; triggered in test/payments/platform-lifecycle.test.ts',
};

// --- Links ---

const decode = (text: string) => text.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');

/** Every http(s) link of both parts: bare in the text, in an href or bare in the HTML. */
function linksIn(mail: ReceivedMail): string[] {
  const found = [mail.text, decode(mail.html)].flatMap((part) => part.match(/https?:\/\/[^\s"'<>]+/g) ?? []);
  // A sentence's full stop or closing bracket is not part of the link.
  return [...new Set(found.map((link) => link.replace(/[.,;:!?)\]]+$/, '')))];
}

/** Requests a link as a browser clicking it: GET, redirects followed; every answer on the way. */
async function visit(link: string): Promise<{ url: string; status: number }[]> {
  const hops: { url: string; status: number }[] = [];
  const cookies = new Map<string, string>();
  let url = new URL(link);
  for (let hop = 0; hop < 10; hop++) {
    const ours = url.host === new URL(f.t.url).host || url.hostname.endsWith('.localhost');
    // Only our own hosts are requested: a redirect out (an app's redirect URI) ends the visit.
    if (!ours) break;
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await tenantFetch(url, { headers: cookie ? { cookie } : {} });
    await response.arrayBuffer();
    hops.push({ url: url.href, status: response.status });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) break;
    url = new URL(location, url);
  }
  return hops;
}

test('every mail template is triggered by this test, or left out with a reason', async () => {
  // Mails are composed in mails.ts files only, so listing those lists every template.
  const composing = sourceFiles().filter((file) => !file.endsWith('/mails.ts') && /\bcomposeMail\(/.test(readFileSync(join(SRC, file), 'utf8')));
  assert.deepEqual(composing, ['platform/mail/templates.ts'], 'composeMail is called only from mails.ts files');
  const templates = await mailTemplates();
  assert.deepEqual(templates, [...Object.keys(triggers), ...Object.keys(LEFT_OUT)].sort());
});

for (const [template, trigger] of Object.entries(triggers)) {
  test(`${template}: every link answers, none is a 404 or a 5xx`, async (t) => {
    const mail = await trigger();
    const links = linksIn(mail);
    if (links.length === 0) t.diagnostic('no links');
    for (const link of links) {
      const hops = await visit(link);
      t.diagnostic(`${link}: ${hops.map((hop) => `${hop.status} ${new URL(hop.url).pathname}`).join(' -> ')}`);
      assert.ok(hops.length > 0, `${link} is a link to one of our hosts`);
      for (const hop of hops) {
        assert.ok(hop.status !== 404 && hop.status < 500, `${template}: ${link} answered ${hop.status} at ${hop.url}`);
      }
    }
  });
}

test('the links of the mails point where they should', async () => {
  // A check of the extraction itself, on mails whose links are known: if linksIn missed them, the
  // tests above would pass on mails they never followed.
  const invitation = await triggers['workspaces.invitation']!();
  const [link] = linksIn(invitation);
  assert.match(link ?? '', new RegExp(`^${f.t.url.replace(/[.]/g, '\\.')}/invites/[A-Za-z0-9_-]{43}$`));
  assert.deepEqual(linksIn(invitation), [link], 'the text and HTML parts carry the same link');
  // The console web app shows the invitation: the link answers its index.html, as every client route.
  const opened = await fetch(link!);
  assert.equal(opened.status, 200);
  assert.match(opened.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(await opened.text(), /<div id="root"><\/div>/);
  const registered = await triggers['issuer/people.alreadyRegistered']!();
  assert.deepEqual(linksIn(registered), [f.issuer]);
  // The customer invitations land on the portal's invitation page of the API's host.
  for (const template of ['customers.becomeCustomer', 'customers.joinCustomer']) {
    const links = linksIn(await triggers[template]!());
    assert.equal(links.length, 1, template);
    assert.match(links[0]!, new RegExp(`^${f.issuer.replace(/[.]/g, '\\.')}/invites/[A-Za-z0-9_-]{43}$`), template);
  }
  // The key mails land on the portal's page of people's own keys.
  assert.deepEqual(linksIn(await triggers['end-user-keys.newKey']!()), [`${f.issuer}/api-keys`]);
  const code = await triggers['accounts.signupCode']!();
  assert.deepEqual(linksIn(code), [], 'a code mail has no link');
});
