// npm oidc-provider (v9) for issuer.bench.ts, in a process of its own, set up for the same flow as
// ours: authorization code with PKCE S256, RS256 JWT access tokens (typ at+jwt) for RESOURCE,
// refresh tokens rotated on every use, an ID token with e-mail claims, and introspection by a
// resource server with client_secret_basic. Tokens live in its own in-memory adapter, given a store
// of 10 million entries (its default keeps 1,000, least recently used out, which drops codes and
// grants under a benchmark's load), or with BENCH_PEER_ADAPTER=redis in Redis (REDIS_URL, default
// redis://127.0.0.1:6379) through oidc-redis-adapter.ts, the storage its documentation asks of a
// production deployment; its keys carry a prefix of this process and are deleted when it stops.
//
// oidc-provider does not introspect structured (JWT) access tokens (its rejectStructuredTokens
// step answers unsupported_token_type), so the resource server introspects access tokens of an
// opaque-token twin of RESOURCE: same scope, same server, stored instead of signed.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { errors } from 'oidc-provider';
import MemoryAdapter from 'oidc-provider/lib/adapters/memory_adapter.js';
import LRU from 'oidc-provider/lib/helpers/lru.js';
import { Redis } from 'ioredis';
import { redisAdapterFactory, redisCommands } from './oidc-redis-adapter.js';
import { CODE_CHALLENGE, eachLimited, NONCE, ownCpuMicros, PERMISSION, REDIRECT_URI, RESOURCE, SCOPES, type ChildMessage, type ParentMessage } from './issuer-support.js';

export const OPAQUE_RESOURCE = `${RESOURCE}/opaque`;
const APP = { clientId: 'app_bench', secret: randomBytes(32).toString('base64url') };
const SERVER = { clientId: 'rs_bench', secret: randomBytes(32).toString('base64url') };
const ACCOUNT = { accountId: 'per_bench', email: 'pat@people.test' };
const ACCESS_TOKEN_TTL_S = 3600;

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'bench-rs256', alg: 'RS256', use: 'sig' };

const httpServer = createServer();
await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
const port = (httpServer.address() as AddressInfo).port;
const host = `theirs.localhost:${port}`;
const issuer = `http://${host}`;

const audiences = (aud: unknown): unknown[] => (Array.isArray(aud) ? aud : [aud]);

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = process.env.BENCH_PEER_ADAPTER === 'redis' ? new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 }) : null;
if (redis) await redis.connect();
const redisPrefix = `bench-oidc-${randomBytes(4).toString('hex')}:`;
const RedisAdapter = redis ? redisAdapterFactory(redis, redisPrefix) : null;
const store = new LRU({ maxSize: 10_000_000 });
const provider = new Provider(issuer, {
  adapter: (model: string) => (RedisAdapter ? new RedisAdapter(model) : new MemoryAdapter(model, store)),
  clients: [
    { client_id: APP.clientId, client_secret: APP.secret, redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' },
    // The resource server: introspection only.
    { client_id: SERVER.clientId, client_secret: SERVER.secret, redirect_uris: [], grant_types: [], response_types: [], token_endpoint_auth_method: 'client_secret_basic' },
  ],
  jwks: { keys: [jwk as never] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  findAccount: async (_ctx: unknown, sub: string) => (sub === ACCOUNT.accountId ? { accountId: sub, claims: async () => ({ sub, email: ACCOUNT.email, email_verified: true }) } : undefined),
  pkce: { required: () => true },
  rotateRefreshToken: true,
  ttl: { AccessToken: ACCESS_TOKEN_TTL_S, AuthorizationCode: 60, IdToken: ACCESS_TOKEN_TTL_S, RefreshToken: 2_592_000, Grant: 2_592_000 },
  features: {
    devInteractions: { enabled: false },
    introspection: {
      enabled: true,
      // As ours: a server sees tokens whose audience names it; a web app sees its own tokens.
      allowedPolicy: async (_ctx: unknown, client: { clientId: string }, token: { clientId: string; aud?: unknown }) =>
        client.clientId === SERVER.clientId ? audiences(token.aud).includes(OPAQUE_RESOURCE) : token.clientId === client.clientId,
    },
    resourceIndicators: {
      enabled: true,
      defaultResource: async (_ctx: unknown, _client: unknown, oneOf: string | string[] | undefined) => oneOf ?? undefined,
      // As ours: the token is for the resource signed in for, even with openid granted.
      useGrantedResource: async () => true,
      getResourceServerInfo: async (_ctx: unknown, resource: string) => {
        if (resource === RESOURCE) return { scope: PERMISSION, audience: RESOURCE, accessTokenTTL: ACCESS_TOKEN_TTL_S, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
        if (resource === OPAQUE_RESOURCE) return { scope: PERMISSION, audience: OPAQUE_RESOURCE, accessTokenTTL: ACCESS_TOKEN_TTL_S, accessTokenFormat: 'opaque' };
        throw new errors.InvalidTarget();
      },
    },
  },
});
httpServer.on('request', provider.callback());

/** A grant and its code, as oidc-provider's interaction would save them after a consent. */
async function mintCode(resource: string): Promise<string> {
  const grant = new provider.Grant({ accountId: ACCOUNT.accountId, clientId: APP.clientId });
  grant.addOIDCScope(SCOPES.filter((scope) => scope !== PERMISSION).join(' '));
  grant.addResourceScope(resource, PERMISSION);
  const grantId = await grant.save();
  const client = await provider.Client.find(APP.clientId);
  const code = new provider.AuthorizationCode({
    accountId: ACCOUNT.accountId,
    client,
    grantId,
    redirectUri: REDIRECT_URI,
    scope: SCOPES.join(' '),
    resource,
    codeChallenge: CODE_CHALLENGE,
    codeChallengeMethod: 'S256',
    nonce: NONCE,
    authTime: Math.floor(Date.now() / 1000),
    amr: ['pwd'],
    expiresWithSession: false,
  } as never);
  return code.save();
}

const send = (message: ChildMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));
process.on('disconnect', () => process.exit());
process.on('message', async (message: ParentMessage) => {
  if (message.type === 'codes') {
    const resource = message.forIntrospection ? OPAQUE_RESOURCE : RESOURCE;
    const codes = await eachLimited(Array.from({ length: message.count }), 8, () => mintCode(resource));
    await send({ type: 'codes', codes });
  } else if (message.type === 'cpu') {
    await send({ type: 'cpu', serverMicros: ownCpuMicros(), databaseMicros: null, queries: redis ? redisCommands.count : null });
  } else if (message.type === 'stop') {
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    if (redis) {
      // Only this process's keys: the Redis is shared.
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 1000);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      await redis.quit();
    }
    await send({ type: 'stopped' });
    process.disconnect();
  }
});

await send({
  type: 'ready',
  port,
  host,
  issuer,
  tokenPath: '/token',
  introspectionPath: '/token/introspection',
  app: APP,
  server: SERVER,
  introspectedResource: OPAQUE_RESOURCE,
  storage: redis ? `Redis (${new URL(REDIS_URL).host}, its adapter interface over ioredis, keys ${redisPrefix}*)` : 'memory (its own in-memory adapter, store of 10M entries)',
});
