import type { Clock } from '../platform/clock.js';
import { addMs, DAY, HOUR, MINUTE, SECOND } from '../platform/clock.js';
import type { SecretBox } from '../platform/crypto.js';
import type { ChangeFeed } from '../platform/db/change-feed.js';
import type { Db, Trx } from '../platform/db/database.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import { safePost, type SafePostResult } from '../platform/outbound/safe-post.js';
import type { ApiService } from '../apis/service.js';
import type { WorkspaceService } from '../workspaces/service.js';
import * as mails from './mails.js';
import * as q from './queries.js';
import { signedHeaders } from './signing.js';

/** An attempt's whole exchange, connection to the last byte kept (issue 24 item 3). */
export const ATTEMPT_TIMEOUT_MS = 15 * SECOND;
/** How much of a receiver's answer a delivery keeps. */
export const RESPONSE_KEPT_BYTES = 2048;
/**
 * The wait after each failed attempt before the next (the Standard Webhooks reference schedule):
 * 8 attempts in all, the last about 27.6 hours after the first.
 */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** An endpoint whose deliveries have all failed this long is disabled. */
export const DISABLE_AFTER_MS = 5 * DAY;
/**
 * A claimed delivery is not due again for this long: an attempt's bound and a few seconds to
 * record it, so only a node that died mid-attempt lets another node take it over, soon after.
 */
export const LEASE_MS = ATTEMPT_TIMEOUT_MS + 5 * SECOND;
const BATCH = 50;
const PARALLEL = 16;
const SWEEP_MS = SECOND;

type Claimed = Awaited<ReturnType<typeof q.deliveriesToAttempt>>[number];

export interface DeliveryOptions {
  baseUrl: string;
  /** Tests and development only (UNSAFE_OUTBOUND_PRIVATE): endpoints on loopback and private networks. */
  allowPrivateAddresses: boolean;
}

/**
 * Sends due deliveries (DESIGN 12): claims them, signs each attempt with the endpoint's secrets,
 * POSTs through the outbound guard, and records the outcome: 2xx is success, anything else
 * (a redirect included) a failure retried on RETRY_DELAYS_MS. Woken by the change feed when
 * deliveries are committed on any node, and by a sweep every second for retries that fall due.
 */
export class WebhookDelivery {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #again = false;
  #started = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly outbox: MailOutbox,
    private readonly apis: ApiService,
    private readonly workspaces: WorkspaceService,
    private readonly options: DeliveryOptions,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(changes: ChangeFeed): void {
    if (this.#started) return;
    this.#started = true;
    changes.subscribe((tags) => {
      if (this.#started && (tags === null || tags.has(q.DELIVERIES_DUE_TAG))) this.kick();
    });
    this.#timer = setInterval(() => this.kick(), SWEEP_MS);
    this.#timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.#started = false;
    clearInterval(this.#timer);
    await this.#running;
  }

  /** Starts a pass now, or one more after the pass that is running. */
  kick(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.deliverDue()
      .catch(this.onError)
      .finally(() => {
        this.#running = undefined;
        if (this.#again && this.#started) {
          this.#again = false;
          this.kick();
        }
      });
  }

  /** Attempts every delivery due now, in claimed batches; answers how many were attempted and succeeded. */
  async deliverDue(): Promise<{ attempted: number; succeeded: number }> {
    const totals = { attempted: 0, succeeded: 0 };
    for (;;) {
      const now = this.clock.now();
      const leaseUntil = addMs(now, LEASE_MS);
      const ids = await q.claimDue(this.db, now, leaseUntil, BATCH);
      const claimed = await q.deliveriesToAttempt(this.db, ids);
      // PARALLEL attempts at a time, each starting as soon as one ends (a slow receiver holds one slot).
      let next = 0;
      await Promise.all(Array.from({ length: Math.min(PARALLEL, claimed.length) }, async () => {
        while (next < claimed.length) {
          const succeeded = await this.#attempt(claimed[next++]!, leaseUntil);
          totals.attempted++;
          if (succeeded) totals.succeeded++;
        }
      }));
      if (ids.length < BATCH) return totals;
    }
  }

  /** The secrets an attempt is signed with: the current one, and the one it replaced during the overlap. */
  #secrets(delivery: Claimed, at: Date): string[] {
    const secrets = [this.box.open(delivery.secret_sealed)];
    if (delivery.previous_secret_sealed && delivery.previous_secret_expires_at && delivery.previous_secret_expires_at > at) {
      secrets.push(this.box.open(delivery.previous_secret_sealed));
    }
    return secrets;
  }

  async #attempt(delivery: Claimed, leaseUntil: Date): Promise<boolean> {
    const at = this.clock.now();
    let result: SafePostResult;
    try {
      result = await safePost(delivery.url, {
        body: delivery.payload,
        headers: { ...signedHeaders(this.#secrets(delivery, at), delivery.event_id, at, delivery.payload) },
        timeoutMs: ATTEMPT_TIMEOUT_MS,
        keepBytes: RESPONSE_KEPT_BYTES,
        allowPrivateAddresses: this.options.allowPrivateAddresses,
      });
    } catch (error) {
      result = { ok: false, reason: 'the request could not be made' };
      this.onError(error);
    }
    // A success is one statement (the delivery, and the end of a failing streak if one ran).
    if (result.ok && result.status >= 200 && result.status < 300) {
      await q.recordSuccess(this.db, delivery.id, leaseUntil, { attempts: delivery.attempts + 1, at, statusCode: result.status, excerpt: result.excerpt });
      return true;
    }
    const mailed = await this.db.transaction().execute((trx) => this.#recordFailure(trx, delivery, leaseUntil, at, result));
    if (mailed) this.outbox.kick();
    return false;
  }

  /**
   * Records a failed attempt and its retry (or that none is left), and what it means for the
   * endpoint; true when it queued mail to the workspace's owners and admins.
   */
  async #recordFailure(trx: Trx, delivery: Claimed, leaseUntil: Date, at: Date, result: SafePostResult): Promise<boolean> {
    const attempts = delivery.attempts + 1;
    const exhausted = attempts >= MAX_ATTEMPTS;
    const recorded = await q.recordAttempt(trx, delivery.id, leaseUntil, {
      status: exhausted ? 'failed' : 'pending',
      attempts,
      next_attempt_at: exhausted ? null : addMs(at, RETRY_DELAYS_MS[attempts - 1]!),
      last_attempt_at: at,
      last_status_code: result.ok ? result.status : null,
      last_response: result.ok ? result.excerpt : null,
      last_error: result.ok ? (result.status >= 300 && result.status < 400 ? `redirect (${result.status}) not followed` : `answered ${result.status}`) : result.reason,
    });
    // The claim ran out and another node took the delivery over: its outcome is the one kept.
    if (!recorded) return false;
    const endpoint = await q.markEndpointFailing(trx, delivery.endpoint_id, at);
    if (!endpoint) return false;
    const mailAll = async (compose: (to: string, apiName: string, deliveriesUrl: string) => ReturnType<typeof mails.endpointDisabled>) => {
      const api = await this.apis.findById(trx, delivery.api_id);
      if (!api) return;
      const deliveriesUrl = `${this.options.baseUrl}/api/apis/${api.id}/webhooks/${endpoint.id}/deliveries`;
      for (const to of await this.workspaces.adminContacts(trx, api.workspace_id)) await this.outbox.enqueue(trx, compose(to, api.name, deliveriesUrl));
    };
    let mailed = false;
    if (exhausted && !endpoint.exhausted_mailed_at) {
      await q.updateEndpoint(trx, endpoint.api_id, endpoint.id, { exhausted_mailed_at: at });
      const eventType = JSON.parse(delivery.payload).type as string;
      await mailAll((to, apiName, url) => mails.deliveriesExhausted(to, apiName, endpoint.url, eventType, url));
      mailed = true;
    }
    if (!endpoint.disabled_at && endpoint.failing_since && at.getTime() - endpoint.failing_since.getTime() >= DISABLE_AFTER_MS) {
      await q.updateEndpoint(trx, endpoint.api_id, endpoint.id, { disabled_at: at, disabled_reason: 'failing', updated_at: at });
      await mailAll((to, apiName, url) => mails.endpointDisabled(to, apiName, endpoint.url, url));
      mailed = true;
    }
    return mailed;
  }
}
