// Operations of the console API that declare no body refuse one (issue 23 item 6; the hook is
// console/no-body-hook.ts): 400 `unexpected_body`, before the handler, so nothing changes. No body,
// or `{}`, goes ahead. Every such operation of the OpenAPI document is walked, so a new route is
// covered without being listed here.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.js';
import { assertProblem } from '../support/assertions.js';
import { createApi, createCustomer, type ApiFixture } from '../support/money.js';
import { jsonBodySchema, operationsOf, type OpenApiDocument } from '../support/openapi.js';

let t: TestApp;
let api: ApiFixture;
before(async () => {
  t = await startTestApp();
  api = await createApi(t);
});
after(() => t.close());

const apiStatus = async () => (await api.owner.client.get(`/apis/${api.apiId}`)).body.status as string;

/** A request with a body and no content type, which `fetch` cannot send (it labels strings text/plain). */
function sendUnlabelled(method: string, path: string, body: string, cookie: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${t.url}/api${path}`, { method, headers: { cookie, 'x-requested-with': 'test', 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') }));
    });
    request.on('error', reject);
    request.end(body);
  });
}
const sessionCookie = () => [...api.owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

test('every console operation without a body schema refuses a body with members, before its handler', async () => {
  const doc = (await t.client().get('/openapi.json')).body as OpenApiDocument;
  const bodiless = operationsOf(doc).filter((op) => op.path.startsWith('/api/') && op.method !== 'GET' && op.method !== 'HEAD' && !jsonBodySchema(op.operation));
  // The walk is only as good as what it finds: these are known to take no body.
  for (const key of ['POST /api/apis/{api}/resume', 'DELETE /api/apis/{api}/customers/{id}', 'POST /api/apis/{api}/plan/cancel', 'POST /api/apis/{api}/customers/{id}/subscription/resume']) {
    assert.ok(bodiless.some((op) => op.key === key), `${key} is walked`);
  }
  // Real ids where the test has them: a hook that let the body through would act on them.
  const ids: Record<string, string> = { ws: api.owner.workspaceId, api: api.apiId };
  for (const op of bodiless) {
    const path = op.path.slice('/api'.length).replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? 'no-such-id');
    const answer = await api.owner.client.request(op.method, path, { at_once: true });
    assertProblem(answer, 400, 'unexpected_body');
    assert.deepEqual(answer.body.errors, [{ location: 'body', message: 'must be absent or {}' }], op.key);
  }
  // Nothing happened: the workspace and the API are still there, the API still active.
  assert.equal((await api.owner.client.get(`/workspaces/${api.owner.workspaceId}`)).status, 200);
  assert.equal(await apiStatus(), 'active');
});

test('a body-less operation goes ahead with no body or {}, and refuses every other JSON value', async () => {
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/suspend`, { reason: 'maintenance' })).status, 200, 'a declared body still goes through');
  for (const raw of ['{"at_once":true}', '[]', 'null', '"resume"', '0', 'false', '{"":null}']) {
    const answer = await api.owner.client.post(`/apis/${api.apiId}/resume`, undefined, { raw, headers: { 'content-type': 'application/json' } });
    assertProblem(answer, 400, 'unexpected_body');
    assert.equal(await apiStatus(), 'suspended', `${raw} changed nothing`);
  }
  const resumed = await api.owner.client.post(`/apis/${api.apiId}/resume`, {});
  assert.equal(resumed.status, 200, resumed.text);
  assert.equal(resumed.body.status, 'active');
  await api.owner.client.post(`/apis/${api.apiId}/suspend`, {});
  const bare = await api.owner.client.post(`/apis/${api.apiId}/resume`);
  assert.equal(bare.status, 200, bare.text);
  assert.equal(await apiStatus(), 'active');
});

test('a DELETE with a body is refused whether or not a content type names it; with none or {} it deletes', async () => {
  const kept = await createCustomer(t, api, 'Kept');
  const detail = () => api.owner.client.get(`/apis/${api.apiId}/customers/${kept.id}`);
  assertProblem(await api.owner.client.request('DELETE', `/apis/${api.apiId}/customers/${kept.id}`, { reason: 'left' }), 400, 'unexpected_body');
  // A body no content type names is not JSON: the console's JSON-only rule refuses it first (415).
  const unlabelled = await sendUnlabelled('DELETE', `/apis/${api.apiId}/customers/${kept.id}`, '{"reason":"left"}', sessionCookie());
  assert.equal(unlabelled.status, 415);
  assert.equal(unlabelled.body.type, 'urn:gatehouse:problem:unsupported_media_type');
  assert.equal((await detail()).status, 200, 'the customer is still there');
  assert.equal((await detail()).body.archived_at ?? null, null);

  const withEmpty = await api.owner.client.request('DELETE', `/apis/${api.apiId}/customers/${kept.id}`, {});
  assert.ok(withEmpty.status < 300, withEmpty.text);
  const other = await createCustomer(t, api, 'Other');
  const bare = await api.owner.client.delete(`/apis/${api.apiId}/customers/${other.id}`);
  assert.ok(bare.status < 300, bare.text);
});

test('the sign-in check comes first, and routes with a body schema are judged by it alone', async () => {
  // A stranger learns nothing about the route's body rules: 401, as for any closed route.
  assertProblem(await t.client().post(`/apis/${api.apiId}/resume`, { at_once: true }), 401, 'not_signed_in');
  // A declared body keeps its own rules (an undeclared field is the schema's 422, not this 400).
  const answer = await api.owner.client.post(`/apis/${api.apiId}/suspend`, { reason: 'x', at_once: true });
  assert.notEqual(answer.body?.type, 'urn:gatehouse:problem:unexpected_body', answer.text);
});
