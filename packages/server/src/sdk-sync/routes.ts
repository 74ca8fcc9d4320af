import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { TEXT_RULE_IN_HANDLER } from '../platform/http/validation.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiRow, ApiService } from '../apis/service.js';
import { ErrorModel } from '../console/common-schemas.js';
import { Problem } from '../platform/errors.js';
import { CURSOR_EXPIRED, type ChangeService } from './changes.js';
import { ChangesBody, ChangesQuery, DEFAULT_CHANGES_LIMIT } from './schemas.js';
import { DEAF_RECHECK_MS, type ChangeWaiters } from './waiters.js';
import type { SnapshotService } from './snapshot.js';
import type { UsageService } from './usage.js';
import * as wire from './wire-schemas.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API whose SDK secret authenticated this SDK request. */
    sdkApi: ApiRow | null;
  }
}

/** An answer that names anything (an answer at a moved cursor names at least the API's terms). */
function hasRecords(answer: { customers: unknown[]; keys: unknown[]; removed_keys: unknown[]; removed_customers: unknown[]; balances: unknown[] }) {
  return answer.customers.length + answer.keys.length + answer.removed_keys.length + answer.removed_customers.length + answer.balances.length > 0;
}

/** Seconds a snapshot request turned away for lack of a stream slot is told to wait. */
const SNAPSHOT_BUSY_RETRY_S = 5;

// SDK errors are plain JSON objects: clients parse every body as JSON (wire protocol section 1).
function denied(reply: FastifyReply) {
  return reply.status(401).header('www-authenticate', 'Bearer realm="gatehouse-sdk"').send({ error: 'invalid_secret', detail: 'unknown or expired SDK secret' });
}

export function sdkSyncRoutes(deps: { apis: ApiService; snapshots: SnapshotService; changes: ChangeService; waiters: ChangeWaiters; usage: UsageService }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.decorateRequest('sdkApi', null);
    // 401 only for a secret that is truly unknown or past its grace: SDKs treat 401 as final and
    // answer 503 to all traffic until a snapshot succeeds, so nothing transient may answer 401.
    app.addHook('onRequest', async (request: FastifyRequest, reply) => {
      const match = /^Bearer (\S{1,200})$/i.exec(request.headers.authorization ?? '');
      const api = match ? await deps.apis.findBySdkSecret(match[1]!) : undefined;
      if (!api) return denied(reply);
      request.sdkApi = api;
    });
    const full = (request: FastifyRequest) => (request.query as { shape?: string }).shape === 'full';
    const tags = ['sdk'];
    // The records are described (wire-schemas.ts), never used to serialize: SDKs get exactly what
    // JSON.stringify writes, as before the OpenAPI document described them.
    const asWritten = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };
    const refused = { 401: Type.Ref(wire.SdkError) };
    const busy = { 429: Type.Ref(wire.SdkError) };

    app.get('/sdk/v1/snapshot', {
      schema: {
        tags,
        summary: 'Customers, key hashes, balances and policy for an SDK',
        description: 'Stamped with a strictly rising generated_at. `shape=full` adds the pending status the spec knows. Answers 304 to a matching If-None-Match.',
        querystring: Type.Object({ shape: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('wire')])) }),
        response: { 200: Type.Ref(wire.SnapshotBody), ...refused, ...busy },
        security: [{ sdkSecret: [] }],
      },
      ...asWritten,
    }, async (request, reply) => {
      const api = request.sdkApi!;
      // Before the stream's transaction opens: nothing of this request may wait on the database
      // while the stream waits on this request's socket.
      await deps.apis.recordSdkVisit(api, String(request.headers['user-agent'] ?? ''));
      const streamed = await deps.snapshots.stream(api, full(request), request.headers['if-none-match']);
      // Every stream slot of this node is held (stream-slots.ts). 429 with Retry-After: SDKs retry
      // it after that wait (the wire protocol's rule for 429), where a 503 is retried at once.
      if (streamed === 'busy') {
        return reply.status(429).header('retry-after', String(SNAPSHOT_BUSY_RETRY_S)).header('cache-control', 'no-store')
          .send({ error: 'snapshots_busy', detail: `this node is streaming as many snapshots as it may; try again in ${SNAPSHOT_BUSY_RETRY_S} seconds` } as never);
      }
      reply.header('etag', streamed.etag).header('cache-control', 'no-store');
      if (!streamed.body) return reply.status(304).send(undefined as never);
      // Written as it is read (snapshot-stream.ts): a stream is piped, never serialized again.
      return reply.type('application/json').send(streamed.body as never);
    });

    app.get('/sdk/v1/changes', {
      schema: {
        tags,
        summary: 'What changed after a cursor: customers, keys, removals and balances',
        description:
          "Start from a snapshot's sync_cursor, then pass each answer's cursor as since. Each object appears at most once per answer, with its newest state, in the order of its latest change; has_more: ask again at once. A cursor older than the tombstones kept (7 days) answers 410 with type urn:gatehouse:problem:cursor_expired: read the snapshot again.",
        querystring: ChangesQuery,
        response: { 200: ChangesBody, 410: Type.Ref(ErrorModel) },
        security: [{ sdkSecret: [] }],
      },
    }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { since, limit = DEFAULT_CHANGES_LIMIT, wait = 0 } = request.query;
      const api = request.sdkApi!;
      const read = async () => {
        const answer = await deps.changes.read(api, Number(since), limit, full(request));
        if (answer === CURSOR_EXPIRED) throw new Problem('cursor_expired', 'this cursor is older than the changes kept, or was not handed out by this service');
        return answer;
      };
      if (wait === 0) return read();
      // Long poll (docs/decisions.md, "Long polling"): the place among the waiters is taken before
      // the read, so a change committing between the read and the wait still wakes this one.
      const waiter = deps.waiters.enter(api.id);
      if (!waiter) throw new Problem('rate_limited', 'too many SDKs are waiting for changes of this API on this node: ask again without wait, or later', undefined, { 'retry-after': '5' });
      let gone = false;
      const hangUp = () => {
        gone = true;
        waiter.wake();
      };
      reply.raw.once('close', hangUp);
      try {
        const end = performance.now() + wait * 1000;
        for (;;) {
          const answer = await read();
          const left = end - performance.now();
          if (answer.cursor !== since || answer.has_more || hasRecords(answer) || left <= 0 || gone || waiter.closing) return answer;
          await waiter.until(deps.waiters.deaf ? Math.min(left, DEAF_RECHECK_MS) : left);
        }
      } finally {
        reply.raw.off('close', hangUp);
        waiter.leave();
      }
    });

    app.get('/sdk/v1/keys/verify', {
      schema: {
        tags,
        summary: 'Look up a key hash missing from the snapshot',
        description: 'An unknown, revoked or malformed hash answers 200 {"valid": false}.',
        // key_hash is not length-checked here: any value that is not a 64-hex hash is simply not a
        // key we know, and must answer 200 {"valid": false}; a 422 would give the SDK's request a
        // 503 (wire protocol section 3). The URL itself is still bounded by the header size limit.
        querystring: Type.Object({
          key_hash: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
          shape: Type.Optional(Type.String({ maxLength: 10 })),
        }, { [TEXT_RULE_IN_HANDLER]: 'a key_hash that is not 64 hex digits is not a key: 200 {"valid": false}' }),
        response: { 200: Type.Ref(wire.VerifyBody), ...refused },
        security: [{ sdkSecret: [] }],
      },
      ...asWritten,
    }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const keyHash = typeof request.query.key_hash === 'string' ? request.query.key_hash : '';
      return deps.snapshots.verify(request.sdkApi!, keyHash, full(request));
    });

    app.post('/sdk/v1/usage', {
      bodyLimit: 16 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Report usage items; each is applied exactly once',
        description: 'Answers one result per item: accepted, duplicate (sent before with the same payload) or rejected with a detail.',
        // Items are checked one by one in the service: a bad item is rejected alone, because a
        // 4xx for the whole report would make SDKs split it and dead-letter good items.
        // The text rule too: every field the item parser reads must match a pattern that admits no
        // NUL or lone surrogate, and fields it does not read are ignored (wire protocol section 4).
        // The document shows SdkUsageReport, whose items are SdkUsageItem (swaggerTransform below).
        body: Type.Object({ items: Type.Array(Type.Unknown(), { maxItems: 10000 }) }, { [TEXT_RULE_IN_HANDLER]: 'each item is checked alone and rejected alone' }),
        response: { 200: Type.Ref(wire.UsageAnswer), ...refused },
        security: [{ sdkSecret: [] }],
      },
      config: { swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, body: Type.Ref(wire.UsageReport) }, url }) },
      ...asWritten,
      // results first, as always; balances after (issue 27): SDKs ignore fields they do not know.
    }, async (request) => {
      const { results, balances } = await deps.usage.ingestReport(request.sdkApi!.id, request.body.items);
      return { results, balances };
    });
  };
}
