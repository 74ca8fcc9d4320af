// A Redis adapter for oidc-provider (the storage a production deployment of it uses, per its
// documentation's adapter interface: upsert, find, findByUid, findByUserCode, consume, destroy,
// revokeByGrantId), over ioredis, for the benchmark's second peer. Written for this benchmark.
//
// Layout: each model instance is one hash `<prefix><Model>:<id>` with its JSON payload in field
// `p` and, once consumed, the time in field `c` (so consuming a code or a refresh token is one
// HSET, not a read-modify-write). Instances that belong to a grant are listed in the set
// `<prefix>grant:<grantId>`, so revoking a grant deletes them all; uids and user codes are keys
// that point to an id. Every key expires with what it holds.
//
// `commands` counts the Redis commands sent (a MULTI/EXEC counts each command inside it and the
// two around it), the benchmark's "statements per operation" for this peer.
import type { Redis } from 'ioredis';

/** Models oidc-provider stores that belong to a grant (revoked with it). */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

export const redisCommands = { count: 0 };

export function redisAdapterFactory(redis: Redis, prefix: string) {
  return class RedisAdapter {
    constructor(private readonly model: string) {}

    private key(id: string) {
      return `${prefix}${this.model}:${id}`;
    }

    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
      const key = this.key(id);
      const multi = redis.multi();
      let sent = 2;
      multi.del(key);
      multi.hset(key, 'p', JSON.stringify(payload));
      sent += 2;
      if (expiresIn) {
        multi.expire(key, expiresIn);
        sent++;
      }
      const grantId = payload.grantId;
      if (GRANTABLE.has(this.model) && typeof grantId === 'string') {
        const grantKey = `${prefix}grant:${grantId}`;
        multi.sadd(grantKey, key);
        sent++;
        // The list lives as long as its longest member (a grant's refresh tokens outlive its codes).
        if (expiresIn) {
          multi.expire(grantKey, expiresIn, 'GT');
          multi.expire(grantKey, expiresIn, 'NX');
          sent += 2;
        }
      }
      for (const [field, index] of [['uid', 'uid'], ['userCode', 'userCode']] as const) {
        const value = payload[field];
        if (typeof value !== 'string') continue;
        if (expiresIn) multi.set(`${prefix}${this.model}:${index}:${value}`, id, 'EX', expiresIn);
        else multi.set(`${prefix}${this.model}:${index}:${value}`, id);
        sent++;
      }
      redisCommands.count += sent;
      await multi.exec();
    }

    async find(id: string) {
      redisCommands.count++;
      const stored = await redis.hgetall(this.key(id));
      if (!stored.p) return undefined;
      const payload = JSON.parse(stored.p) as Record<string, unknown>;
      if (stored.c) payload.consumed = Number(stored.c);
      return payload;
    }

    private async findByIndex(index: string, value: string) {
      redisCommands.count++;
      const id = await redis.get(`${prefix}${this.model}:${index}:${value}`);
      return id ? this.find(id) : undefined;
    }

    findByUid(uid: string) {
      return this.findByIndex('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.findByIndex('userCode', userCode);
    }

    async consume(id: string) {
      redisCommands.count++;
      await redis.hset(this.key(id), 'c', Math.floor(Date.now() / 1000));
    }

    async destroy(id: string) {
      redisCommands.count++;
      await redis.del(this.key(id));
    }

    async revokeByGrantId(grantId: string) {
      const grantKey = `${prefix}grant:${grantId}`;
      redisCommands.count++;
      const members = await redis.smembers(grantKey);
      redisCommands.count++;
      await redis.del(grantKey, ...members);
    }
  };
}
