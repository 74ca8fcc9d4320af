// The pure parts of the APIs pages: what an owner types read into the API's integers, the SDK
// snippets' quoting (no secret, values escaped), and the ink of the portal preview.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { curlLine, js, shellWord, snippets } from '../src/routes/apis/connect/snippets.js';
import { contrast, textOn, validAccent } from '../src/routes/apis/settings/contrast.js';
import { logoSrc } from '../src/routes/apis/settings/logo-src.js';
import { dollars, parseAmount, parseDollarList, parseDollars, parseStatusCodes, parseWhole } from '../src/routes/apis/settings/parse.js';

test('settings fields read typed amounts exactly, in micro units and cents', () => {
  assert.deepEqual(parseAmount('0.001'), { ok: true, value: 1_000 });
  assert.deepEqual(parseAmount('0.000001'), { ok: true, value: 1 });
  assert.deepEqual(parseAmount('100'), { ok: true, value: 100_000_000 });
  assert.deepEqual(parseAmount('1,000.5'), { ok: true, value: 1_000_500_000 });
  assert.equal(parseAmount('0.0000001').ok, false, 'seven decimals');
  assert.equal(parseAmount('abc').ok, false);
  assert.deepEqual(parseWhole('100,000'), { ok: true, value: 100_000 });
  assert.deepEqual(parseWhole(' 0 '), { ok: true, value: 0 });
  for (const bad of ['-1', '1.5', '', 'ten', '99999999999999999']) assert.equal(parseWhole(bad).ok, false, bad);
  assert.deepEqual(parseDollars('5'), { ok: true, value: 500 });
  assert.deepEqual(parseDollars('20.5'), { ok: true, value: 2050 });
  assert.equal(parseDollars('20.555').ok, false);
  assert.deepEqual(parseDollarList('10, 25.50 $100'), { ok: true, value: [1000, 2550, 10000] });
  assert.deepEqual(parseDollarList(''), { ok: true, value: [] });
  assert.equal(parseDollarList('10, x').ok, false);
  assert.deepEqual(parseStatusCodes('200, 201 204'), { ok: true, value: [200, 201, 204] });
  assert.deepEqual(parseStatusCodes(''), { ok: true, value: [] });
  assert.equal(parseStatusCodes('200, 2000').ok, false);
  assert.equal(dollars(100_000), '1000.00');
  assert.equal(dollars(2050), '20.50');
});

test('SDK snippets carry the API values quoted, and never a secret', () => {
  assert.equal(js("it's \\ here"), `'it\\'s \\\\ here'`);
  assert.equal(js('a\u2028b'), `'a\\u2028b'`);
  assert.equal(shellWord("it's"), `'it'\\''s'`);
  assert.equal(curlLine('https://api.example/v1', 'X-Key', 'k_1'), `curl -i -H 'X-Key: k_1' 'https://api.example/v1'`);
  const all = snippets({ baseUrl: "http://gate'house.example", keyHeader: "X-Odd'Key" });
  assert.deepEqual(all.map((s) => s.label), ['node:http', 'Express', 'Fastify', 'Hono', 'MCP']);
  for (const snippet of all) {
    assert.ok(snippet.code.includes(`baseUrl: 'http://gate\\'house.example'`), snippet.id);
    assert.ok(snippet.code.includes(`keyHeader: 'X-Odd\\'Key'`), snippet.id);
    assert.ok(snippet.code.includes('secret: process.env.GATEHOUSE_SECRET_KEY'), snippet.id);
    assert.ok(!snippet.code.includes('mas_'), snippet.id);
    assert.match(snippet.install, /^npm install @gatehouse\/sdk/);
  }
});

test('the portal preview writes on the accent in whichever ink reads, at least 4.5:1 for usual accents', () => {
  assert.equal(textOn('#4f46e5'), '#ffffff');
  assert.equal(textOn('#0f766e'), '#ffffff');
  assert.equal(textOn('#ffd500'), '#1f2328');
  assert.equal(textOn('#ffffff'), '#1f2328');
  assert.equal(textOn('#000000'), '#ffffff');
  for (const accent of ['#4f46e5', '#0f766e', '#ffd500', '#e11d48', '#22c55e', '#808080']) {
    assert.equal(contrast(accent, textOn(accent)), Math.max(contrast(accent, '#ffffff'), contrast(accent, '#1f2328')), `${accent}: the better ink`);
  }
  for (const accent of ['#4f46e5', '#0f766e', '#ffd500', '#000000', '#ffffff']) assert.ok(contrast(accent, textOn(accent)) >= 4.5, accent);
  assert.equal(Math.round(contrast('#ffffff', '#000000')), 21);
  assert.ok(validAccent('#0F766e'));
  for (const bad of ['#0f76', '0f766e', '#0f766g', '#0f766e0']) assert.equal(validAccent(bad), false, bad);
});

test('the preview reads the logo from the console host, with a version that follows the address', () => {
  assert.equal(logoSrc('api_1', undefined), null);
  const a = logoSrc('api_1', 'https://cdn.example/a.png')!;
  assert.match(a, /^\/api\/apis\/api_1\/logo\?v=[0-9a-z]{1,7}$/);
  assert.equal(logoSrc('api_1', 'https://cdn.example/a.png'), a, 'the same address, the same version');
  assert.notEqual(logoSrc('api_1', 'https://cdn.example/b.png'), a);
});
