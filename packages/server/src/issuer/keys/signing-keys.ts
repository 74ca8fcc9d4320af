import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { Clock } from '../../platform/clock.js';
import { DAY, SECOND } from '../../platform/clock.js';
import type { SecretBox } from '../../platform/crypto.js';
import type { Db, Trx } from '../../platform/db/database.js';
import * as q from './queries.js';
import { changed, notifyChange } from '../../platform/db/change-feed.js';
import type { ChangeFeed } from '../../platform/db/change-feed.js';

const generateRsa = promisify(generateKeyPair);

export interface Signer {
  kid: string;
  privateKey: KeyObject;
  /** The encoded JWS headers of this key's access tokens and ID tokens, made once per key. */
  accessTokenHeader: string;
  idTokenHeader: string;
}

const encodedHeader = (header: Record<string, string>) => Buffer.from(JSON.stringify(header)).toString('base64url');

interface KeySet {
  signer: Signer | null;
  publicKeys: Map<string, KeyObject>;
  jwks: JWK[];
  loadedAt: number;
}

// A rotation notifies every node (changed.keys), which drops its set. Nodes also re-read the set
// this often, so a lost notification heals; until then the old key still signs, and it stays
// published long after (spec 4.3). A node not listening re-reads within a second.
const RELOAD_AFTER_MS = 60 * SECOND;
const RELOAD_AFTER_DEAF_MS = SECOND;
// An unseen kid makes a node re-read at once, but not more often than this.
const UNSEEN_KID_RELOAD_MS = 5 * SECOND;

/**
 * RS256 signing keys per API (spec 4.3): one active key signs; a rotated-out key stays in JWKS
 * for the access-token lifetime plus 24 hours. Private keys are sealed with SECRET_KEY at rest.
 */
export class SigningKeys {
  readonly #sets = new Map<string, KeySet>();
  readonly #loading = new Map<string, Promise<KeySet>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly feed: ChangeFeed,
  ) {
    feed.subscribe((tags) => {
      if (tags === null) return this.#sets.clear();
      for (const tag of tags) {
        const space = tag.indexOf(':');
        const kind = tag.slice(0, space);
        // The API's settings say how long retired keys stay published.
        if (kind === 'keys' || kind === 'api') this.#sets.delete(tag.slice(space + 1));
      }
    });
  }

  /** The key that signs for this API, made on first use. */
  async signer(apiId: string, accessTokenTtlS: number): Promise<Signer> {
    let set = await this.#keySet(apiId, accessTokenTtlS);
    if (!set.signer) {
      const made = await this.#newKey(apiId);
      await q.insertFirstKey(this.db, made);
      set = await this.#reload(apiId, accessTokenTtlS);
    }
    return set.signer!;
  }

  /** The published public keys as a JWK Set (spec 4.1 /oauth/jwks). */
  async jwks(apiId: string, accessTokenTtlS: number): Promise<{ keys: JWK[] }> {
    await this.signer(apiId, accessTokenTtlS);
    return { keys: (await this.#keySet(apiId, accessTokenTtlS)).jwks };
  }

  /** The public key of a published kid, for checking our own tokens; null when not published. */
  async publicKey(apiId: string, kid: string, accessTokenTtlS: number): Promise<KeyObject | null> {
    let set = await this.#keySet(apiId, accessTokenTtlS);
    if (!set.publicKeys.has(kid) && this.clock.now().getTime() - set.loadedAt > UNSEEN_KID_RELOAD_MS) {
      set = await this.#reload(apiId, accessTokenTtlS);
    }
    return set.publicKeys.get(kid) ?? null;
  }

  /** Retires the signing key and makes a new one, inside the caller's transaction (audited there). */
  async rotate(trx: Trx, apiId: string): Promise<string> {
    const made = await this.#newKey(apiId);
    await q.retireActiveKey(trx, apiId, this.clock.now());
    await q.insertActiveKey(trx, made);
    await notifyChange(trx, [changed.keys(apiId)]);
    return made.kid;
  }

  /** Forgets the cached set of one API (after a rotation committed on this node). */
  forget(apiId: string): void {
    this.#sets.delete(apiId);
  }

  async #newKey(apiId: string) {
    const { publicKey, privateKey } = await generateRsa('rsa', { modulusLength: 2048 });
    const jwk = publicKey.export({ format: 'jwk' }) as JWK;
    const kid = await calculateJwkThumbprint(jwk);
    const publicJwk: JWK = { kty: 'RSA', n: jwk.n!, e: jwk.e!, kid, alg: 'RS256', use: 'sig' };
    return {
      kid,
      api_id: apiId,
      public_jwk: JSON.stringify(publicJwk),
      private_sealed: this.box.seal(privateKey.export({ format: 'pem', type: 'pkcs8' }) as string),
      created_at: this.clock.now(),
    };
  }

  async #keySet(apiId: string, accessTokenTtlS: number): Promise<KeySet> {
    const set = this.#sets.get(apiId);
    const lifetime = this.feed.listening ? RELOAD_AFTER_MS : RELOAD_AFTER_DEAF_MS;
    if (set && this.clock.now().getTime() - set.loadedAt < lifetime && set.loadedAt <= this.clock.now().getTime()) return set;
    return this.#reload(apiId, accessTokenTtlS);
  }

  #reload(apiId: string, accessTokenTtlS: number): Promise<KeySet> {
    let loading = this.#loading.get(apiId);
    if (!loading) {
      loading = this.#load(apiId, accessTokenTtlS).finally(() => this.#loading.delete(apiId));
      this.#loading.set(apiId, loading);
    }
    return loading;
  }

  async #load(apiId: string, accessTokenTtlS: number): Promise<KeySet> {
    const now = this.clock.now();
    const generation = this.feed.generation;
    const retiredSince = new Date(now.getTime() - accessTokenTtlS * SECOND - DAY);
    const rows = await q.publishedKeys(this.db, apiId, retiredSince);
    const publicKeys = new Map<string, KeyObject>();
    let signer: Signer | null = null;
    for (const row of rows) {
      publicKeys.set(row.kid, createPublicKey({ key: row.public_jwk as never, format: 'jwk' }));
      if (row.active) {
        signer = {
          kid: row.kid,
          privateKey: createPrivateKey(this.box.open(row.private_sealed)),
          accessTokenHeader: encodedHeader({ alg: 'RS256', typ: 'at+jwt', kid: row.kid }),
          idTokenHeader: encodedHeader({ alg: 'RS256', typ: 'JWT', kid: row.kid }),
        };
      }
    }
    const set: KeySet = { signer, publicKeys, jwks: rows.map((row) => row.public_jwk), loadedAt: now.getTime() };
    // A change that arrived while reading may have been read before it committed: answer, not keep.
    if (this.feed.generation === generation) this.#sets.set(apiId, set);
    return set;
  }
}
