// Fetching client ID metadata documents (spec 4.3) through the SSRF-guarded fetch: public
// addresses only, the checked address pinned, no redirects, at most 5 KB, a few seconds.
import type { Clock } from '../../platform/clock.js';
import { MAX_JSON_DEPTH, jsonDepthExceeds } from '../../platform/http/json-body.js';
import { safeFetch } from '../../platform/outbound/safe-fetch.js';
import { documentLifetimeMs } from './cache-lifetime.js';
import type { CheckedMetadata } from './client-metadata.js';
import { MetadataError } from './client-metadata.js';
import { checkMetadataDocument, MAX_METADATA_DOCUMENT_BYTES } from './metadata-rules.js';

export const METADATA_FETCH_TIMEOUT_MS = 5000;

export type FetchedDocument = { ok: true; metadata: CheckedMetadata; lifetimeMs: number } | { ok: false; reason: string };

export interface OutboundOptions {
  /** Tests only (UNSAFE_OUTBOUND_PRIVATE): documents may be served from loopback. */
  allowPrivateAddresses: boolean;
  /** Tests only (AppDeps.outboundTestCa): a certificate authority trusted beside the usual roots. */
  extraCa?: string;
}

/**
 * Fetches and checks metadata documents. Requests for one URL at once share one fetch; nothing
 * is remembered here: what a good document says is kept on its app's row (client-directory.ts),
 * and a failure is never kept, so the next use fetches again (spec 4.3: errors never cached).
 */
export class MetadataDocuments {
  readonly #inFlight = new Map<string, Promise<FetchedDocument>>();

  constructor(
    private readonly clock: Clock,
    private readonly outbound: OutboundOptions,
  ) {}

  fetch(url: string): Promise<FetchedDocument> {
    const flight = this.#inFlight.get(url);
    if (flight) return flight;
    const fetched = this.#fetch(url).finally(() => this.#inFlight.delete(url));
    this.#inFlight.set(url, fetched);
    return fetched;
  }

  async #fetch(url: string): Promise<FetchedDocument> {
    const answer = await safeFetch(url, {
      maxBytes: MAX_METADATA_DOCUMENT_BYTES,
      timeoutMs: METADATA_FETCH_TIMEOUT_MS,
      accept: 'application/json',
      allowPrivateAddresses: this.outbound.allowPrivateAddresses,
      ...(this.outbound.extraCa ? { extraCa: this.outbound.extraCa } : {}),
    });
    if (!answer.ok) return { ok: false, reason: answer.reason === 'the body is too large' ? `the document is larger than ${MAX_METADATA_DOCUMENT_BYTES} bytes` : answer.reason };
    if (answer.status >= 300 && answer.status < 400) return { ok: false, reason: `it answered a redirect (${answer.status}), which is not followed` };
    if (answer.status !== 200) return { ok: false, reason: `it answered HTTP ${answer.status}` };
    const text = answer.body.toString('utf8');
    let parsed: unknown;
    try {
      if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw new Error('too deep');
      parsed = JSON.parse(text);
    } catch {
      return { ok: false, reason: 'the document is not JSON' };
    }
    try {
      const metadata = checkMetadataDocument(url, parsed);
      return { ok: true, metadata, lifetimeMs: documentLifetimeMs(answer.headers, this.clock.now()) };
    } catch (error) {
      if (error instanceof MetadataError) return { ok: false, reason: error.description };
      throw error;
    }
  }
}
