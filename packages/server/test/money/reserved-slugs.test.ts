// Reserved slugs (issue 26 item 6): names of the platform's own hosts (the default CNAME target
// `domains`) and names clients and servers look up on their own under any domain (mta-sts,
// autodiscover, wpad, localhost) could be registered, and the TLS ask then allowed a certificate
// for them. They are refused at creation (422 naming body.slug) and in the slug check; names next
// to them stay free, and a name that would generate one gets another slug.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { assertRefusedAt } from '../support/money.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t);
});
after(() => t.close());

const create = (body: Record<string, unknown>) => owner.client.post(`/workspaces/${owner.workspaceId}/apis`, body);

test('platform and well-known host names are reserved slugs; their neighbours are free', async () => {
  for (const slug of ['domains', 'mta-sts', 'autodiscover', 'autoconfig', 'wpad', 'localhost', 'isatap', 'ns1', 'webmail']) {
    const refused = await create({ name: `Reserved ${slug}`, slug });
    assertRefusedAt(refused, 'body.slug');
    assert.match(refused.body.errors[0].message, /reserved/, slug);
    const check = await owner.client.get(`/slugs/${slug}`);
    assert.equal(check.status, 200, check.text);
    assert.equal(check.body.available, false, slug);
    assert.equal((await t.services.db.selectFrom('apis').select('id').where('slug', '=', slug).execute()).length, 0, `${slug}: nothing was made`);
  }
  for (const slug of ['domains-api', 'mta-sts-2', 'my-wpad', 'localhost-weather']) {
    const made = await create({ name: `Free ${slug}`, slug });
    assert.equal(made.status, 200, `${slug}: ${made.text}`);
    assert.equal(made.body.api.slug, slug);
  }
  const generated = await create({ name: 'Autodiscover' });
  assert.equal(generated.status, 200, generated.text);
  assert.equal(generated.body.api.slug, 'autodiscover-api');
});
