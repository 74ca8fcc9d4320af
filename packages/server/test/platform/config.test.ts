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

test('request timeouts and the connection cap: defaults, and each bound on both sides', () => {
  const defaults = loadConfig(base);
  assert.equal(defaults.headersTimeoutS, 60);
  assert.equal(defaults.requestTimeoutS, 60);
  assert.equal(defaults.maxConnectionsPerAddress, 100);
  const accepted: [Record<string, string>, Partial<ReturnType<typeof loadConfig>>][] = [
    [{ HEADERS_TIMEOUT_S: '1', REQUEST_TIMEOUT_S: '1' }, { headersTimeoutS: 1, requestTimeoutS: 1 }],
    [{ HEADERS_TIMEOUT_S: '3600', REQUEST_TIMEOUT_S: '3600' }, { headersTimeoutS: 3600, requestTimeoutS: 3600 }],
    [{ HEADERS_TIMEOUT_S: '10', REQUEST_TIMEOUT_S: '10' }, { headersTimeoutS: 10, requestTimeoutS: 10 }],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '0' }, { maxConnectionsPerAddress: 0 }],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '1' }, { maxConnectionsPerAddress: 1 }],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '1000000' }, { maxConnectionsPerAddress: 1_000_000 }],
  ];
  for (const [env, expected] of accepted) {
    const config = loadConfig({ ...base, ...env });
    for (const [key, value] of Object.entries(expected)) assert.equal(config[key as keyof typeof config], value, JSON.stringify(env));
  }
  const refused: [Record<string, string>, string][] = [
    [{ HEADERS_TIMEOUT_S: '0' }, 'HEADERS_TIMEOUT_S'],
    [{ HEADERS_TIMEOUT_S: '3601', REQUEST_TIMEOUT_S: '3600' }, 'HEADERS_TIMEOUT_S'],
    [{ HEADERS_TIMEOUT_S: '1.5' }, 'HEADERS_TIMEOUT_S'],
    [{ REQUEST_TIMEOUT_S: '0', HEADERS_TIMEOUT_S: '1' }, 'REQUEST_TIMEOUT_S'],
    [{ REQUEST_TIMEOUT_S: '3601' }, 'REQUEST_TIMEOUT_S'],
    [{ REQUEST_TIMEOUT_S: 'soon' }, 'REQUEST_TIMEOUT_S'],
    // Node refuses a headers timeout longer than the whole request's; so do we, by name.
    [{ HEADERS_TIMEOUT_S: '11', REQUEST_TIMEOUT_S: '10' }, 'HEADERS_TIMEOUT_S'],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '-1' }, 'MAX_CONNECTIONS_PER_ADDRESS'],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '1000001' }, 'MAX_CONNECTIONS_PER_ADDRESS'],
    [{ MAX_CONNECTIONS_PER_ADDRESS: 'many' }, 'MAX_CONNECTIONS_PER_ADDRESS'],
  ];
  for (const [env, name] of refused) {
    assert.throws(() => loadConfig({ ...base, ...env }), (error: unknown) => error instanceof ConfigError && error.setting === name, JSON.stringify(env));
  }
});

test('LOG_LEVEL: pino levels are accepted; another word stops start-up naming the allowed ones', () => {
  for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) assert.equal(loadConfig({ ...base, LOG_LEVEL: level }).logLevel, level);
  assert.equal(loadConfig(base).logLevel, 'info');
  assert.throws(
    () => loadConfig({ ...base, LOG_LEVEL: 'verbose' }),
    (error: unknown) => error instanceof ConfigError && error.setting === 'LOG_LEVEL' && error.message === 'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent; got "verbose"',
  );
});

test('LOG_FORMAT: pretty at a terminal in development, JSON elsewhere, and either when asked', () => {
  assert.equal(loadConfig(base, true).logFormat, 'pretty');
  assert.equal(loadConfig(base, false).logFormat, 'json');
  assert.equal(loadConfig({ ...base, NODE_ENV: 'production' }, true).logFormat, 'json');
  assert.equal(loadConfig({ ...base, LOG_FORMAT: 'json' }, true).logFormat, 'json');
  assert.equal(loadConfig({ ...base, LOG_FORMAT: 'pretty' }, false).logFormat, 'pretty');
  assert.throws(() => loadConfig({ ...base, LOG_FORMAT: 'text' }), (error: unknown) => error instanceof ConfigError && error.setting === 'LOG_FORMAT');
});
