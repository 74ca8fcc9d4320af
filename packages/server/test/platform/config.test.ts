import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

const base = { SECRET_KEY: Buffer.alloc(32, 7).toString('base64'), DATA_DIR: '/tmp/gh-config-test' };

test('defaults: port 8080, console at localhost:8080, portal domain localhost, PGlite', () => {
  const config = loadConfig(base);
  assert.equal(config.port, 8080);
  assert.equal(config.baseUrl, 'http://localhost:8080');
  assert.equal(config.consoleHost, 'localhost:8080');
  assert.equal(config.portalDomain, 'localhost');
  assert.equal(config.databaseUrl, null);
});

test('each bad setting stops start-up with an error naming it', () => {
  const cases: [Record<string, string>, string][] = [
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ BASE_URL: 'not a url' }, 'BASE_URL'],
    [{ BASE_URL: 'ftp://example.com' }, 'BASE_URL'],
    [{ BASE_URL: 'https://example.com/console' }, 'BASE_URL'],
    [{ PORTAL_DOMAIN: 'bad domain!' }, 'PORTAL_DOMAIN'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ SMTP_URL: 'mail.example.com' }, 'SMTP_URL'],
    [{ SECRET_KEY: 'c2hvcnQ=' }, 'SECRET_KEY'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
  ];
  for (const [env, name] of cases) {
    assert.throws(() => loadConfig({ ...base, ...env }), (error: unknown) => error instanceof ConfigError && error.setting === name, name);
  }
});

test('production requires SECRET_KEY; development generates one into DATA_DIR and keeps it', () => {
  assert.throws(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: '/tmp/gh-config-test' }), (e: unknown) => e instanceof ConfigError && e.setting === 'SECRET_KEY');
  const dir = `/tmp/gh-config-${process.pid}-${Date.now()}`;
  const first = loadConfig({ DATA_DIR: dir });
  const second = loadConfig({ DATA_DIR: dir });
  assert.equal(first.secretKey.length, 32);
  assert.deepEqual(first.secretKey, second.secretKey);
});
