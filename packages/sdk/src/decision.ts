// `req.gatehouse` for the node, Express and MCP adapters. Declared here, not beside the adapters:
// their .d.ts files do not import one another, while every public .d.ts reaches this one, so
// TypeScript users see the property whichever entry point they import.
declare module 'node:http' {
  interface IncomingMessage {
    /** The metered customer, set by the Gatehouse adapters on admitted requests. */
    gatehouse?: MeteredCustomer;
  }
}

/** The customer an admitted request belongs to, as the handler sees it. */
export interface MeteredCustomer {
  id: string;
  /** The key's id (a UUID), as usage reports name it. */
  keyId: string;
  status: 'active';
  balanceMicro: number;
  pricePerRequestMicro: number;
  billingModel: string;
}

export type DenialReason =
  | 'missing_key'
  | 'invalid_key'
  | 'suspended'
  | 'pending'
  | 'insufficient_credit'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'platform_limit'
  | 'stale_snapshot'
  | 'policy_expired'
  | 'unavailable'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'no_customer'
  | 'too_many_invalid_keys';

export interface Admitted {
  ok: true;
  customer: MeteredCustomer;
  /** Records the request's final HTTP status; call it once, before the response completes. */
  finish(status: number): void;
}

export interface Denied {
  ok: false;
  status: 401 | 402 | 403 | 429 | 503;
  reason: DenialReason;
  headers: Record<string, string>;
  body: { error: DenialReason; message: string };
}

export type Admission = Admitted | Denied;

/** What `onDecision` receives: every admission, and its outcome. */
export interface Decision {
  outcome: 'admitted' | DenialReason;
  status: number;
  customerId: string | null;
  at: number;
}

const messages: Record<DenialReason, string> = {
  missing_key: 'An API key is required.',
  invalid_key: 'The API key is not valid.',
  suspended: 'This account is suspended.',
  pending: 'This account is waiting for approval.',
  insufficient_credit: 'Not enough credit: top up to continue.',
  rate_limited: 'Too many requests: slow down.',
  quota_exceeded: 'The monthly quota is used up.',
  platform_limit: 'The service has reached its monthly request limit.',
  stale_snapshot: 'The service cannot check keys right now.',
  policy_expired: 'The service cannot check keys right now.',
  unavailable: 'The service cannot check keys right now.',
  invalid_token: 'The access token is not valid: sign in again.',
  insufficient_scope: 'The access token lacks a permission this request needs.',
  too_many_invalid_keys: 'Too many invalid API keys from this address: wait a minute.',
  no_customer: 'You are signed in, but your account belongs to no customer of this service: sign up in its portal, or ask the customer you work with to invite you.',
};

export function deny(status: Denied['status'], reason: DenialReason, headers: Record<string, string> = {}): Denied {
  const extra: Record<string, string> = status === 401 ? { 'www-authenticate': 'Bearer error="invalid_token"' } : {};
  return { ok: false, status, reason, headers: { ...extra, ...headers }, body: { error: reason, message: messages[reason] } };
}
