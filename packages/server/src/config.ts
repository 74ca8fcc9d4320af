import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';

/** Every setting of the server, read once at start (DESIGN section 4). */
export interface Config {
  port: number;
  host: string;
  /** Public origin of the console, without a trailing slash. */
  baseUrl: string;
  /** Host (with port when not default) that serves the console face. */
  consoleHost: string;
  portalDomain: string;
  databaseUrl: string | null;
  dataDir: string;
  redisUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  /** 32 bytes: encrypts secrets that must be shown again. */
  secretKey: Buffer;
  trustProxy: boolean;
  production: boolean;
  logLevel: LogLevel;
  /** Log lines as JSON (for collectors), or pino's pretty output for a person at a terminal. */
  logFormat: 'json' | 'pretty';
  /** Replaces the platform plan catalogue (platform-plans.json). */
  platformPlansFile: string | null;
  /** Tests only: outbound fetches of user-given URLs may reach loopback and private networks. */
  outboundAllowPrivate: boolean;
  /** Time a request's headers may take to arrive (408 and closed after). */
  headersTimeoutS: number;
  /** Time a whole request, headers and body, may take to arrive (408 and closed after). */
  requestTimeoutS: number;
  /** Connections open at once per client address (IPv6: per /64); 0 for no cap. Off behind a trusted proxy. */
  maxConnectionsPerAddress: number;
  /** The payments provider (issue 13): Stripe, the development provider, or none. */
  payments: PaymentsConfig;
  /** Resolvers custom domain checks ask (`ip` or `ip:port`); empty: the system's. */
  dnsServers: string[];
  /** Custom domains (issue 17): where owners point them, and the authorities CAA must allow. */
  customDomains: { cnameTarget: string; caaIssuers: string[] };
  /** After a stop signal: time /readyz answers 503 while requests are still served, before closing. */
  shutdownDrainS: number;
  /** After closing begins: time in-flight requests and background work get before they are abandoned. */
  shutdownGraceS: number;
  /**
   * The bearer token `/metrics` asks for; null: served only to connections from loopback, and not
   * at all behind a trusted proxy (docs/operations.md, "Metrics").
   */
  metricsToken: string | null;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(name, `must be one of ${allowed.join(', ')}; got "${raw}"`);
  return raw as T;
}

export type PaymentsConfig =
  | { kind: 'stripe'; secretKey: string; webhookSecrets: string[]; apiUrl: URL }
  | { kind: 'dev' }
  | { kind: 'none' };

export class ConfigError extends Error {
  constructor(readonly setting: string, message: string) {
    super(`${setting}: ${message}`);
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}`);
  return value;
}

function origin(env: Env, name: string, fallback: string): URL {
  const raw = env[name] || fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `not a URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(name, 'must be http or https');
  if (url.pathname !== '/' || url.search || url.hash) throw new ConfigError(name, 'must be an origin, without path or query');
  return url;
}

function secretKey(env: Env, production: boolean, dataDir: string): Buffer {
  const raw = env.SECRET_KEY;
  if (raw) {
    const key = Buffer.from(raw, 'base64');
    if (key.length !== 32) throw new ConfigError('SECRET_KEY', 'must be 32 bytes, base64 encoded');
    return key;
  }
  if (production) throw new ConfigError('SECRET_KEY', 'is required when NODE_ENV=production');
  // Development: one key generated into DATA_DIR so restarts can still decrypt what was stored.
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'secret.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return secretKey({ SECRET_KEY: readFileSync(file, 'utf8').trim() }, production, dataDir);
}

/**
 * Stripe when its key is set; else the development provider, which is on by default outside
 * production and refused in production unless PAYMENTS_DEV_PROVIDER=true says an operator wants it.
 */
function paymentsConfig(env: Env, production: boolean): PaymentsConfig {
  const key = env.STRIPE_SECRET_KEY || '';
  const secrets = (env.STRIPE_WEBHOOK_SECRET || '').split(',').map((s) => s.trim()).filter(Boolean);
  const dev = env.PAYMENTS_DEV_PROVIDER || '';
  if (dev && !['true', 'false'].includes(dev)) throw new ConfigError('PAYMENTS_DEV_PROVIDER', 'must be true or false');
  if (key) {
    if (!/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/.test(key)) throw new ConfigError('STRIPE_SECRET_KEY', 'must be a Stripe secret or restricted key (sk_… or rk_…)');
    // Credit is added only by events: without their secret no payment would ever be credited.
    if (!secrets.length) throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'is required with STRIPE_SECRET_KEY');
    if (secrets.some((s) => !/^whsec_[A-Za-z0-9+/=_-]+$/.test(s))) throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'must be webhook signing secrets (whsec_…), separated by commas');
    if (dev === 'true') throw new ConfigError('PAYMENTS_DEV_PROVIDER', 'cannot be on with STRIPE_SECRET_KEY');
    const apiUrl = origin(env, 'STRIPE_API_URL', 'https://api.stripe.com');
    if (production && apiUrl.protocol !== 'https:') throw new ConfigError('STRIPE_API_URL', 'must be https when NODE_ENV=production');
    return { kind: 'stripe', secretKey: key, webhookSecrets: secrets, apiUrl };
  }
  if (secrets.length) throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'needs STRIPE_SECRET_KEY');
  if (dev === 'false') return { kind: 'none' };
  // The development provider takes no money: in production only an explicit choice turns it on.
  if (production) return dev === 'true' ? { kind: 'dev' } : { kind: 'none' };
  return { kind: 'dev' };
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** DNS_SERVERS: addresses with an optional port, `[v6]:port` for IPv6 with a port; comma separated. */
function dnsServers(env: Env): string[] {
  const servers = (env.DNS_SERVERS || '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const server of servers) {
    const match = /^\[([^\]]+)\](?::(\d+))?$/.exec(server) ?? /^([^:]+)(?::(\d+))?$/.exec(server) ?? [server, server, undefined];
    const [, address, port] = match;
    const portOk = port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
    if (!isIP(address!) || !portOk) throw new ConfigError('DNS_SERVERS', `"${server}" is not an IP address with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:5353)`);
  }
  return servers;
}

function customDomains(env: Env, portalDomain: string): Config['customDomains'] {
  const cnameTarget = (env.CUSTOM_DOMAIN_CNAME_TARGET || `domains.${portalDomain}`).toLowerCase().replace(/\.$/, '');
  if (!HOST_NAME.test(cnameTarget)) throw new ConfigError('CUSTOM_DOMAIN_CNAME_TARGET', 'must be a host name');
  const caaIssuers = (env.CUSTOM_DOMAIN_CAA_ISSUERS || 'letsencrypt.org,sectigo.com').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (!caaIssuers.length || caaIssuers.some((issuer) => !HOST_NAME.test(issuer))) throw new ConfigError('CUSTOM_DOMAIN_CAA_ISSUERS', 'must be CAA issuer domains, comma separated (letsencrypt.org,sectigo.com)');
  return { cnameTarget, caaIssuers };
}

/**
 * `terminal`: whether standard output is a terminal; there, outside production, logs default to
 * pino's pretty output, and anywhere else to JSON lines (LOG_FORMAT chooses either way).
 */
export function loadConfig(env: Env = process.env, terminal: boolean = Boolean(process.stdout.isTTY)): Config {
  const production = env.NODE_ENV === 'production';
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const base = origin(env, 'BASE_URL', `http://localhost:${port}`);
  const dataDir = resolve(env.DATA_DIR || '.data');
  const portalDomain = (env.PORTAL_DOMAIN || 'localhost').toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(portalDomain)) throw new ConfigError('PORTAL_DOMAIN', 'must be a host name');
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must be a postgres:// URL');
  }
  const redisUrl = env.REDIS_URL || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) throw new ConfigError('REDIS_URL', 'must be a redis:// URL');
  const smtpUrl = env.SMTP_URL || null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError('SMTP_URL', 'must be an smtp:// or smtps:// URL');
  const mailFrom = env.MAIL_FROM || `Gatehouse <no-reply@${base.hostname}>`;
  const trustProxy = env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1';
  if (env.TRUST_PROXY && !['true', 'false', '1', '0'].includes(env.TRUST_PROXY)) {
    throw new ConfigError('TRUST_PROXY', 'must be true or false');
  }
  // nginx's client_header_timeout and client_body_timeout (60 s each), the whole request bounded
  // rather than the gap between reads, so a body trickled a byte at a time is cut too.
  const headersTimeoutS = integer(env, 'HEADERS_TIMEOUT_S', 60, 1, 3600);
  const requestTimeoutS = integer(env, 'REQUEST_TIMEOUT_S', 60, 1, 3600);
  if (headersTimeoutS > requestTimeoutS) throw new ConfigError('HEADERS_TIMEOUT_S', `cannot be longer than REQUEST_TIMEOUT_S (${requestTimeoutS})`);
  const maxConnectionsPerAddress = integer(env, 'MAX_CONNECTIONS_PER_ADDRESS', 100, 0, 1_000_000);
  const outboundAllowPrivate = env.UNSAFE_OUTBOUND_PRIVATE === 'true';
  const shutdownDrainS = integer(env, 'SHUTDOWN_DRAIN_S', 0, 0, 600);
  const shutdownGraceS = integer(env, 'SHUTDOWN_GRACE_S', 10, 1, 600);
  const metricsToken = env.METRICS_TOKEN || null;
  // A token a scraper sends on every request: long enough that guessing it is hopeless.
  if (metricsToken !== null && !/^[\x21-\x7e]{32,256}$/.test(metricsToken)) throw new ConfigError('METRICS_TOKEN', 'must be 32 to 256 printable ASCII characters without spaces (openssl rand -hex 32)');
  if (outboundAllowPrivate && production) throw new ConfigError('UNSAFE_OUTBOUND_PRIVATE', 'cannot be on when NODE_ENV=production');
  return {
    port,
    host: env.HOST || '::',
    baseUrl: base.origin,
    consoleHost: base.host,
    portalDomain,
    databaseUrl,
    dataDir,
    redisUrl,
    smtpUrl,
    mailFrom,
    secretKey: secretKey(env, production, dataDir),
    trustProxy,
    production,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', ['json', 'pretty'] as const, terminal && !production ? 'pretty' : 'json'),
    platformPlansFile: env.PLATFORM_PLANS_FILE || null,
    outboundAllowPrivate,
    headersTimeoutS,
    requestTimeoutS,
    maxConnectionsPerAddress,
    payments: paymentsConfig(env, production),
    dnsServers: dnsServers(env),
    customDomains: customDomains(env, portalDomain),
    shutdownDrainS,
    shutdownGraceS,
    metricsToken,
  };
}
