import type { Selectable } from 'kysely';
import type { Clock } from '../platform/clock.js';
import { addMs, DAY } from '../platform/clock.js';
import type { SecretBox } from '../platform/crypto.js';
import { decodeCursor, pageOf } from '../platform/cursor.js';
import type { Db, Trx } from '../platform/db/database.js';
import { Problem, validationProblem } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import type { ApiRow, ApiService } from '../apis/service.js';
import type { AuditService } from '../audit/service.js';
import { actorOf, type Caller } from '../console/caller.js';
import { endpointUrlProblem } from './endpoint-url.js';
import { TEST_EVENT_TYPE } from './event-types.js';
import { eventRow } from './outbox.js';
import * as q from './queries.js';
import { MAX_ENDPOINTS } from './schemas.js';
import { newEndpointSecret, ROTATION_OVERLAP_MS } from './signing.js';
import type { WebhookEndpointsTable } from './tables.js';

/** Events are listed, and can be replayed, for this long (issue 24 item 5); a job deletes older ones. */
export const EVENT_RETENTION_MS = 30 * DAY;
/** The most events one replay sends again. */
export const MAX_REPLAY = 10_000;

type EndpointRow = Selectable<WebhookEndpointsTable>;
type DeliveryRow = NonNullable<Awaited<ReturnType<typeof q.findDelivery>>>;

export interface NewEndpointInput {
  url: string;
  description?: string;
  event_types?: string[];
}

export interface EndpointChanges extends Partial<NewEndpointInput> {
  enabled?: boolean;
}

const iso = (date: Date | null) => (date ? date.toISOString() : undefined);

function toWebhookOut(row: EndpointRow, now: Date) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.event_types,
    enabled: row.disabled_at === null,
    ...(row.disabled_reason ? { disabled_reason: row.disabled_reason } : {}),
    ...(row.disabled_at ? { disabled_at: row.disabled_at.toISOString() } : {}),
    ...(row.failing_since ? { failing_since: row.failing_since.toISOString() } : {}),
    ...(row.previous_secret_expires_at && row.previous_secret_expires_at > now ? { previous_secret_expires_at: row.previous_secret_expires_at.toISOString() } : {}),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function toDeliveryOut(row: DeliveryRow) {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    created_at: row.created_at.toISOString(),
    ...(row.last_attempt_at ? { last_attempt_at: row.last_attempt_at.toISOString() } : {}),
    ...(row.last_status_code !== null ? { status_code: row.last_status_code } : {}),
    ...(row.last_response !== null ? { response_excerpt: row.last_response } : {}),
    ...(row.last_error !== null ? { error: row.last_error } : {}),
    ...(row.status === 'pending' && row.next_attempt_at ? { next_attempt_at: iso(row.next_attempt_at)! } : {}),
  };
}

/** The console's webhook endpoints, their deliveries, and the API's events (issue 24 item 5). */
export class WebhookService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly audit: AuditService,
    private readonly apis: ApiService,
    private readonly options: { allowPrivateAddresses: boolean },
  ) {}

  #checkUrl(url: string) {
    const problem = endpointUrlProblem(url, this.options.allowPrivateAddresses);
    if (problem) throw validationProblem('body.url', problem, url);
  }

  async #endpoint(db: Db | Trx, apiId: string, endpointId: string): Promise<EndpointRow> {
    const row = await q.findEndpoint(db, apiId, endpointId);
    if (!row) throw new Problem('not_found', 'No such webhook endpoint');
    return row;
  }

  #record(trx: Trx, caller: Caller, api: ApiRow, action: string, endpoint: EndpointRow, summary: string, details: Record<string, unknown> = {}) {
    return this.audit.record(trx, actorOf(caller), {
      workspaceId: api.workspace_id,
      action,
      target: { type: 'webhook_endpoint', id: endpoint.id },
      api: { id: api.id, name: api.name },
      summary,
      details: { url: endpoint.url, ...details },
    });
  }

  async list(caller: Caller, apiId: string) {
    await this.apis.access(caller, apiId, 'viewer');
    const now = this.clock.now();
    return { webhooks: (await q.endpointsOf(this.db, apiId)).map((row) => toWebhookOut(row, now)) };
  }

  async get(caller: Caller, apiId: string, endpointId: string) {
    await this.apis.access(caller, apiId, 'viewer');
    return toWebhookOut(await this.#endpoint(this.db, apiId, endpointId), this.clock.now());
  }

  /** A new endpoint and its secret, shown this once; at most MAX_ENDPOINTS per API. */
  async create(caller: Caller, apiId: string, input: NewEndpointInput) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    this.#checkUrl(input.url);
    const secret = newEndpointSecret();
    const now = this.clock.now();
    const row = await this.db.transaction().execute(async (trx) => {
      // The API row held while counting, so two creations at once cannot both pass the limit.
      await this.apis.lockAmongWriters(trx, apiId);
      if ((await q.countEndpoints(trx, apiId)) >= MAX_ENDPOINTS) throw new Problem('webhook_limit', `An API has at most ${MAX_ENDPOINTS} webhook endpoints`);
      const endpoint = await q.insertEndpoint(trx, {
        id: newId('whe'),
        api_id: apiId,
        url: input.url,
        description: input.description?.trim() ?? '',
        event_types: input.event_types ?? [],
        secret_sealed: this.box.seal(secret),
        previous_secret_sealed: null,
        previous_secret_expires_at: null,
        disabled_at: null,
        disabled_reason: null,
        failing_since: null,
        exhausted_mailed_at: null,
        created_at: now,
        updated_at: now,
      });
      await this.#record(trx, caller, api, 'webhook.create', endpoint, `Added webhook endpoint ${endpoint.url}`, { event_types: endpoint.event_types });
      return endpoint;
    });
    return { ...toWebhookOut(row, now), secret };
  }

  /** Address, description, event types, and disabling or enabling; a change that changes nothing writes nothing. */
  async update(caller: Caller, apiId: string, endpointId: string, changes: EndpointChanges) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    if (changes.url !== undefined) this.#checkUrl(changes.url);
    const now = this.clock.now();
    const row = await this.db.transaction().execute(async (trx) => {
      const endpoint = await q.lockEndpoint(trx, apiId, endpointId);
      if (!endpoint) throw new Problem('not_found', 'No such webhook endpoint');
      const set: Partial<EndpointRow> = {};
      if (changes.url !== undefined && changes.url !== endpoint.url) set.url = changes.url;
      if (changes.description !== undefined && changes.description.trim() !== endpoint.description) set.description = changes.description.trim();
      const types = changes.event_types;
      if (types !== undefined && (types.length !== endpoint.event_types.length || types.some((t, i) => t !== endpoint.event_types[i]))) set.event_types = types;
      if (changes.enabled === false && endpoint.disabled_at === null) Object.assign(set, { disabled_at: now, disabled_reason: 'manual' });
      // Enabled again: a fresh start, so one more failure does not disable it at once.
      if (changes.enabled === true && endpoint.disabled_at !== null) Object.assign(set, { disabled_at: null, disabled_reason: null, failing_since: null, exhausted_mailed_at: null });
      if (Object.keys(set).length === 0) return endpoint;
      const updated = await q.updateEndpoint(trx, apiId, endpointId, { ...set, updated_at: now });
      const action = 'disabled_at' in set ? (set.disabled_at ? 'webhook.disable' : 'webhook.enable') : 'webhook.update';
      const what = Object.keys(set).filter((key) => ['url', 'description', 'event_types'].includes(key));
      await this.#record(trx, caller, api, action, updated, `${action === 'webhook.disable' ? 'Disabled' : action === 'webhook.enable' ? 'Enabled' : 'Changed'} webhook endpoint ${updated.url}${what.length ? ` (${what.join(', ')})` : ''}`,
        Object.fromEntries(what.map((key) => [key, { from: endpoint[key as keyof EndpointRow], to: updated[key as keyof EndpointRow] }])));
      return updated;
    });
    return toWebhookOut(row, now);
  }

  async remove(caller: Caller, apiId: string, endpointId: string): Promise<void> {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    await this.db.transaction().execute(async (trx) => {
      const endpoint = await q.lockEndpoint(trx, apiId, endpointId);
      if (!endpoint) throw new Problem('not_found', 'No such webhook endpoint');
      await q.deleteEndpoint(trx, apiId, endpointId);
      await this.#record(trx, caller, api, 'webhook.delete', endpoint, `Removed webhook endpoint ${endpoint.url}`);
    });
  }

  /** A new secret, shown this once; the old one signs beside it for 24 hours (issue 24 item 1). */
  async rotateSecret(caller: Caller, apiId: string, endpointId: string) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    const secret = newEndpointSecret();
    const now = this.clock.now();
    const row = await this.db.transaction().execute(async (trx) => {
      const endpoint = await q.lockEndpoint(trx, apiId, endpointId);
      if (!endpoint) throw new Problem('not_found', 'No such webhook endpoint');
      const updated = await q.updateEndpoint(trx, apiId, endpointId, {
        secret_sealed: this.box.seal(secret),
        previous_secret_sealed: endpoint.secret_sealed,
        previous_secret_expires_at: addMs(now, ROTATION_OVERLAP_MS),
        updated_at: now,
      });
      await this.#record(trx, caller, api, 'webhook.secret_rotate', updated, `Rotated the secret of webhook endpoint ${updated.url}; the old one signs beside it for 24 hours`);
      return updated;
    });
    return { ...toWebhookOut(row, now), secret };
  }

  /** Sends a `webhook.test` event to this endpoint alone. */
  async sendTest(caller: Caller, apiId: string, endpointId: string) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    const now = this.clock.now();
    const endpoint = await this.#endpoint(this.db, apiId, endpointId);
    const event = eventRow(TEST_EVENT_TYPE, now, { object: { object: 'webhook_endpoint', id: endpoint.id, api_id: api.id, url: endpoint.url } });
    const deliveryId = await this.db.transaction().execute((trx) => q.insertTestEvent(trx, apiId, endpointId, event, now));
    return toDeliveryOut((await q.findDelivery(this.db, apiId, endpointId, deliveryId))!);
  }

  async deliveries(caller: Caller, apiId: string, endpointId: string, options: { cursor?: string; limit: number }) {
    await this.apis.access(caller, apiId, 'viewer');
    await this.#endpoint(this.db, apiId, endpointId);
    const before = options.cursor ? decodeCursor(options.cursor) : null;
    if (options.cursor && !before) throw validationProblem('query.cursor', 'not a cursor this API gave', options.cursor);
    const rows = await q.deliveriesPage(this.db, apiId, endpointId, { before, limit: options.limit + 1 });
    const { page, next } = pageOf(rows, options.limit);
    return { deliveries: page.map(toDeliveryOut), ...(next ? { next_cursor: next } : {}) };
  }

  /** The delivery's event sent again now, as a new delivery with the whole retry schedule. */
  async retry(caller: Caller, apiId: string, endpointId: string, deliveryId: string) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    const now = this.clock.now();
    const created = await this.db.transaction().execute(async (trx) => {
      const endpoint = await q.lockEndpoint(trx, apiId, endpointId);
      const delivery = endpoint ? await q.findDelivery(trx, apiId, endpointId, deliveryId) : undefined;
      if (!endpoint || !delivery) throw new Problem('not_found', 'No such delivery');
      const [id] = await q.insertDeliveries(trx, apiId, endpointId, [delivery.event_id], now);
      await this.#record(trx, caller, api, 'webhook.retry', endpoint, `Sent event ${delivery.event_id} (${delivery.event_type}) again to ${endpoint.url}`, { event_id: delivery.event_id, delivery_id: id });
      return id!;
    });
    return toDeliveryOut((await q.findDelivery(this.db, apiId, endpointId, created))!);
  }

  /** Every event of the API since `since` (of the endpoint's types) sent again to this endpoint. */
  async replay(caller: Caller, apiId: string, endpointId: string, since: Date) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    const now = this.clock.now();
    if (since > now) throw validationProblem('body.since', 'must not be in the future', since.toISOString());
    // Nothing older is kept; a far-off year would not even reach the database as itself.
    const from = new Date(Math.max(since.getTime(), now.getTime() - EVENT_RETENTION_MS));
    const count = await this.db.transaction().execute(async (trx) => {
      const endpoint = await q.lockEndpoint(trx, apiId, endpointId);
      if (!endpoint) throw new Problem('not_found', 'No such webhook endpoint');
      const ids = await q.eventIdsSince(trx, apiId, from, endpoint.event_types, MAX_REPLAY);
      await q.insertDeliveries(trx, apiId, endpointId, ids, now);
      await this.#record(trx, caller, api, 'webhook.replay', endpoint, `Sent ${ids.length} events since ${since.toISOString()} again to ${endpoint.url}`, { since: since.toISOString(), events: ids.length });
      return ids.length;
    });
    return { deliveries: count };
  }

  /** The API's events of the last 30 days after a given one, oldest first, for receivers catching up. */
  async events(caller: Caller, apiId: string, options: { after?: string; type?: string; limit: number }) {
    await this.apis.access(caller, apiId, 'viewer');
    const since = addMs(this.clock.now(), -EVENT_RETENTION_MS);
    let after: { xid: string; seq: number } | null = null;
    if (options.after !== undefined) {
      const event = await q.findEvent(this.db, apiId, options.after);
      if (!event || event.endpoint_id !== null || event.created_at < since) throw validationProblem('query.after', 'not an event of this API in the last 30 days', options.after);
      after = { xid: event.xid, seq: event.seq };
    }
    const rows = await q.eventsAfter(this.db, apiId, { after, type: options.type ?? null, since, limit: options.limit + 1 });
    return {
      events: rows.slice(0, options.limit).map((row) => {
        const body = JSON.parse(row.payload) as { timestamp: string; data: Record<string, unknown> };
        return { id: row.id, type: row.type, timestamp: body.timestamp, data: body.data };
      }),
      has_more: rows.length > options.limit,
    };
  }
}
