import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
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
  logLevel: string;
  /** Replaces the platform plan catalogue (platform-plans.json). */
  platformPlansFile: string | null;
  /** Tests only: outbound fetches of user-given URLs may reach loopback and private networks. */
  outboundAllowPrivate: boolean;
}

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

export function loadConfig(env: Env = process.env): Config {
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
  const outboundAllowPrivate = env.UNSAFE_OUTBOUND_PRIVATE === 'true';
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
    logLevel: env.LOG_LEVEL || 'info',
    platformPlansFile: env.PLATFORM_PLANS_FILE || null,
    outboundAllowPrivate,
  };
}
