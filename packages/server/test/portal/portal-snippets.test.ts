// The portal's copy-paste snippets under hostile values (issue 26 item 3). An editor sets where
// the API runs (api_base_url) and the key's header (key_header); both are written into a curl
// line and a Node example that customers paste. The curl line is run here by a real POSIX shell
// with a stand-in `curl` that prints the words it got, and the Node example by a real node with a
// stand-in `fetch`: each must receive exactly the values the editor set, and nothing may run. And
// api_base_url must be an http(s) URL a browser reads as one (422 otherwise).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectPage } from '../support/pages.js';
import { assertRefusedAt } from '../support/money.js';
import { portalVisitor } from '../support/portal.js';
import { decodeEntities, type TenantBrowser } from '../support/tenant-client.js';

let f: IssuerFixture;
let browser: TenantBrowser;
before(async () => {
  f = await startIssuer('Snippets API');
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open' })).status, 200);
  browser = (await portalVisitor(f)).browser;
});
after(() => f.t.close());

async function setApi(changes: Record<string, unknown>) {
  const answer = await f.owner.client.patch(`/apis/${f.apiId}`, changes);
  assert.equal(answer.status, 200, answer.text);
}

/** The quickstart's two snippets as a customer copies them (the text of their code blocks). */
async function snippets() {
  const page = expectPage(await browser.get('/quickstart'), /^Quickstart$/);
  const code = (id: string) => decodeEntities(new RegExp(`<code id="${id}">([\\s\\S]*?)</code>`).exec(page.html)![1]!);
  return { curl: code('curl'), node: code('node') };
}

/** Runs the curl line in sh, in an empty directory, with a `curl` that prints its arguments as JSON. */
function runCurlLine(line: string): { argv: string[]; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'gh-snippet-'));
  const bin = join(dir, 'bin');
  execFileSync('mkdir', [bin]);
  writeFileSync(join(bin, 'curl'), `#!${process.execPath}\nconsole.log(JSON.stringify(process.argv.slice(2)));\n`);
  chmodSync(join(bin, 'curl'), 0o755);
  const work = join(dir, 'work');
  execFileSync('mkdir', [work]);
  const out = execFileSync('/bin/sh', ['-c', line], { cwd: work, env: { PATH: `${bin}:/usr/bin:/bin` }, encoding: 'utf8' });
  return { argv: JSON.parse(out.trim().split('\n').at(-1)!), files: readdirSync(work) };
}

/** Runs the Node example with a `fetch` that prints what it was asked. */
function runNodeExample(code: string): { url: string; headers: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'gh-snippet-'));
  const file = join(dir, 'example.mjs');
  writeFileSync(file, `globalThis.fetch = async (url, init) => { process.stdout.write(JSON.stringify({ url, headers: init.headers }) + '\\n'); return { status: 200, text: async () => '' }; };\n${code}\n`);
  const out = execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' });
  assert.deepEqual(readdirSync(dir), ['example.mjs'], 'the example made no file');
  return JSON.parse(out.split('\n')[0]!);
}

const HOSTILE_URLS = [
  "https://api.example.com/;touch$IFS'pwned';",
  'https://api.example.com/v1?a=1&b=2&c=$(touch${IFS}pwned)',
  'https://api.example.com/`touch${IFS}pwned`/"x"\\y',
  "https://api.example.com/');require('fs').writeFileSync('pwned','');('",
  'https://api.example.com/${process.exit(3)}',
];

test('the curl line and the Node example carry hostile base URLs as data: the shell and node receive them exactly, nothing runs', async () => {
  await setApi({ key_header: 'X-Api-Key' });
  for (const base of HOSTILE_URLS) {
    await setApi({ api_base_url: base });
    const { curl, node } = await snippets();
    const ran = runCurlLine(curl);
    assert.deepEqual(ran.argv, [base, '-H', 'X-Api-Key: YOUR_API_KEY'], base);
    assert.deepEqual(ran.files, [], `${base}: the shell made no file`);
    assert.deepEqual(runNodeExample(node), { url: base, headers: { 'X-Api-Key': 'YOUR_API_KEY' } }, base);
  }
});

test('a key header with the quote, backquote, dollar, ampersand and pipe a header name may hold stays one word', async () => {
  await setApi({ api_base_url: 'https://api.example.com/v1' });
  for (const header of ["X'&touch&'", 'X`touch`$IFS|tee', "it's"]) {
    await setApi({ key_header: header });
    const { curl, node } = await snippets();
    const ran = runCurlLine(curl);
    assert.deepEqual(ran.argv, ['https://api.example.com/v1', '-H', `${header}: YOUR_API_KEY`], header);
    assert.deepEqual(ran.files, []);
    assert.deepEqual(runNodeExample(node).headers, { [header]: 'YOUR_API_KEY' }, header);
  }
  // Authorization takes the key as a Bearer token, still one word.
  await setApi({ key_header: 'Authorization' });
  assert.deepEqual(runCurlLine((await snippets()).curl).argv, ['https://api.example.com/v1', '-H', 'Authorization: Bearer YOUR_API_KEY']);
});

test('api_base_url must be an http(s) URL with a host, as a browser reads it: 422 naming the field otherwise, and nothing changes', async () => {
  await setApi({ api_base_url: 'https://api.example.com/v1' });
  const refused = [
    'https://', 'https:///path', 'https:example.com', 'https:/example.com', 'https://exa mple.com', 'https://api.example.com/a\nb', 'https://api.example.com/\t',
    'https://user:pw@api.example.com', 'https://[::1', 'https://a..b:99999/', 'ftp://api.example.com', 'javascript:alert(1)', 'api.example.com',
  ];
  for (const value of refused) {
    const answer = await f.owner.client.patch(`/apis/${f.apiId}`, { api_base_url: value });
    assertRefusedAt(answer, 'body.api_base_url');
  }
  const created = await f.owner.client.post(`/workspaces/${f.owner.workspaceId}/apis`, { name: 'Bad Base', api_base_url: 'https://' });
  assertRefusedAt(created, 'body.api_base_url');
  assert.equal((await f.owner.client.get(`/apis/${f.apiId}`)).body.api_base_url, 'https://api.example.com/v1', 'refusals changed nothing');
  for (const value of ['http://localhost:3000', 'https://api.example.com/v1?a=1&b=2', 'https://[2001:db8::1]:8443/x', '']) {
    await setApi({ api_base_url: value });
    assert.equal((await f.owner.client.get(`/apis/${f.apiId}`)).body.api_base_url, value);
  }
  assert.ok(!existsSync('pwned'));
});
