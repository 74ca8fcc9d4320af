import { sql } from 'kysely';
import { CHANGE_CHANNEL, type DatabaseHandle, type Db, type Trx } from './database.js';
import { LocalChanges, type ChangeReceiver } from './local-changes.js';

/**
 * Cache invalidation across nodes (docs/architecture.md, "Per-node caches"). A write path that
 * changes what a cache holds calls notifyChange with tags naming what changed, in the transaction
 * of the change: PostgreSQL delivers the NOTIFY to every listening node only when it commits, and
 * never when it rolls back. Caches tag their entries and drop every entry a notification names.
 */

/** What a change touches; a cache entry carries the tags of everything it was read from. */
export const changed = {
  /** The API row, its settings, branding, domains, apps, servers, keys: anything of the API. */
  api: (apiId: string) => `api:${apiId}`,
  person: (personId: string) => `person:${personId}`,
  session: (sessionId: string) => `session:${sessionId}`,
  grant: (grantId: string) => `grant:${grantId}`,
  /** One app or server (by its client id) and every grant of it (blocking an app revokes them all). */
  client: (apiId: string, clientId: string) => `client:${apiId}:${clientId}`,
  /** The signing keys of an API. */
  keys: (apiId: string) => `keys:${apiId}`,
};

type Executor = Db | Trx;

// PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more; a change naming more splits.
const MAX_PAYLOAD = 7_000;

/**
 * Tells every node (this one at once) that what the tags name changed. Call it with the
 * transaction of the change; outside one, call it after the change committed.
 */
export async function notifyChange(db: Executor, tags: readonly string[]): Promise<void> {
  if (tags.length === 0) return;
  localChangesOf(db)?.apply(tags);
  const payloads: string[] = [];
  let current = '';
  for (const tag of tags) {
    if (current && current.length + tag.length + 1 > MAX_PAYLOAD) {
      payloads.push(current);
      current = '';
    }
    current = current ? `${current} ${tag}` : tag;
  }
  payloads.push(current);
  for (const payload of payloads) await sql`select pg_notify(${CHANGE_CHANNEL}, ${payload})`.execute(db);
}

function localChangesOf(db: Executor): LocalChanges | undefined {
  return db.getExecutor().plugins.find((plugin): plugin is LocalChanges => plugin instanceof LocalChanges);
}

/** What a cache does with a change: drop the entries of these tags, or (null) everything. */
export type ChangeSubscriber = (tags: ReadonlySet<string> | null) => void;

/**
 * A node's end of the channel: hands notifications to the caches subscribed, and says whether
 * the node is listening. While it is not (starting, or its connection lost), caches neither
 * answer nor store: a change made meanwhile would reach nobody. Every notification and every
 * change of state moves `generation`, so a read that raced a change is not stored.
 */
export class ChangeFeed implements ChangeReceiver {
  #listening = false;
  #generation = 0;
  #stop: (() => Promise<void>) | null = null;
  #local: LocalChanges | undefined;
  readonly #subscribers = new Set<ChangeSubscriber>();

  get listening(): boolean {
    return this.#listening;
  }

  get generation(): number {
    return this.#generation;
  }

  start(handle: DatabaseHandle): void {
    this.#local = localChangesOf(handle.db);
    this.#local?.receivers.add(this);
    this.#stop = handle.listen(
      (payload) => this.apply(payload.split(' ')),
      (listening) => this.#setListening(listening),
    );
  }

  async stop(): Promise<void> {
    this.#local?.receivers.delete(this);
    this.#setListening(false);
    await this.#stop?.();
    this.#stop = null;
  }

  subscribe(subscriber: ChangeSubscriber): void {
    this.#subscribers.add(subscriber);
  }

  apply(tags: readonly string[]): void {
    this.#generation++;
    const set = new Set(tags);
    for (const subscriber of this.#subscribers) subscriber(set);
  }

  #setListening(listening: boolean): void {
    this.#generation++;
    this.#listening = listening;
    // Lost: what is held may have changed unseen. Back: changes made while deaf were missed.
    for (const subscriber of this.#subscribers) subscriber(null);
  }
}
