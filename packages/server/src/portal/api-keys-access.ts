// How the portal's page of a person's own API keys (pages/api-keys.ts) goes through the account
// API's rules (docs/decisions.md, "The portal's keys page calls the account API's service"): the
// portal is the caller, as an app of the API's own, with the issuer session's sign-in time; the
// same admission (rate limits, recent sign-in) and the same service do every check.
import { Value } from '@sinclair/typebox/value';
import type { AccountCaller } from '../end-user-keys/account-auth.js';
import { admitKeyRequest, type Admission } from '../end-user-keys/admission.js';
import { KeyApiError, type KeyOutcome } from '../end-user-keys/errors.js';
import { MAX_KEY_NAME_LENGTH, MAX_PERMISSIONS_PER_KEY, MAX_SERVERS_PER_KEY, STEP_UP_MAX_AGE_S } from '../end-user-keys/limits.js';
import { NewKeyInBody, type NewKeyIn } from '../end-user-keys/schemas.js';
import { portalApp } from '../issuer/registry/portal-app.js';
import type { FormBody } from '../platform/pages/forms.js';
import { text } from '../platform/pages/forms.js';
import type { PortalContext, PortalDeps } from './context.js';
import { signInPath } from './context.js';

/** The person of a portal page as the caller of the account API's service. */
export async function keyCaller(deps: PortalDeps, ctx: PortalContext): Promise<AccountCaller> {
  const app = await portalApp(deps.db, deps.clock, ctx.tenant.api.id, ctx.tenant.issuer, ctx.tenant.portalIssuer);
  return { personId: ctx.person.person_id, clientId: app.id, authTime: ctx.person.auth_time };
}

/** Whether the person's sign-in is recent enough to create or roll a key now (spec 5.7). */
export const signInRecent = (deps: PortalDeps, ctx: PortalContext) => deps.clock.now().getTime() - ctx.person.auth_time.getTime() <= STEP_UP_MAX_AGE_S * 1000;

/**
 * Runs one request of the page through the account API's admission, then the service call. A
 * refusal comes back as a value, as the service's own refusals do.
 */
export async function throughAccountRules<T>(deps: PortalDeps, caller: AccountCaller, tenantApiId: string, admission: Admission, call: () => Promise<KeyOutcome<T>>): Promise<KeyOutcome<T>> {
  try {
    await admitKeyRequest(deps.tokenBuckets, tenantApiId, caller, admission, deps.clock.now());
  } catch (error) {
    if (error instanceof KeyApiError) return { ok: false, refusal: error };
    throw error;
  }
  return call();
}

/**
 * Where a person whose sign-in is too old goes (spec 4.5: sign in again and come back): the
 * portal's sign-in with max_age, so the issuer asks for the password again, then `next`.
 */
export const reauthPath = (ctx: PortalContext, next: string) => signInPath(next, { maxAge: STEP_UP_MAX_AGE_S, email: ctx.person.email });

/** What a refusal of the account API's rules (spec 7) says on the page, with its status. */
export function refusalNotice(refusal: KeyApiError): { error: string; status: number } {
  const retry = refusal.headers['retry-after'];
  switch (refusal.error) {
    case 'access_denied':
      return { error: 'API keys are not available for this service right now. Keys you have stay listed; you can rename and revoke them.', status: 403 };
    case 'key_limit':
      return { error: `${refusal.description}. Revoke a key you no longer use, then create the new one.`, status: 409 };
    case 'key_expired':
      return { error: 'This key has expired and cannot be rolled: create a new key instead.', status: 409 };
    case 'temporarily_unavailable':
      return { error: `${refusal.description}. Try again in ${waitText(Number(retry ?? 1))}.`, status: 429 };
    case 'not_found':
      return { error: 'No such key: it may have been revoked already.', status: 404 };
    case 'invalid_request':
      return { error: fieldMessage(refusal.field ?? 'body', refusal.description), status: 422 };
    default:
      return { error: 'Your sign-in has ended. Sign in again and retry.', status: refusal.status };
  }
}

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  if (seconds < 5400) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3600)} hours`;
}

const FIELD_LABELS: Record<string, string> = { name: 'Name', resources: 'Servers', permissions: 'Permissions', expires_in_days: 'Lifetime' };

/** A 422's message on the page: the field as the form labels it, then why. */
function fieldMessage(field: string, description: string): string {
  const label = FIELD_LABELS[field] ?? 'The form';
  // The service's descriptions start with the field's API name ("permissions holds …").
  const reason = description.startsWith(field + ' ') ? description.slice(field.length + 1) : description;
  return `${label}: ${reason}.`;
}

/** The form's list fields: one checked box is a string, several are an array. */
function list(body: FormBody, name: string): string[] {
  const value = body[name];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return [...new Set(values.filter((v): v is string => typeof v === 'string'))];
}

/** What the page's words say for each field the account API's schema refuses. */
const FORM_FAULTS: Record<string, string> = {
  name: `Name the key (1 to ${MAX_KEY_NAME_LENGTH} characters).`,
  resources: `Choose 1 to ${MAX_SERVERS_PER_KEY} servers the key works at.`,
  permissions: `Choose at most ${MAX_PERMISSIONS_PER_KEY} permissions.`,
  expires_in_days: 'Choose one of the lifetimes offered.',
};

/**
 * The create form as the account API's create body, checked by the API's own schema (one source
 * of the bounds): the body, and the page's message naming the first field refused, if one is.
 */
export function newKeyInput(body: FormBody): { input: NewKeyIn; error: string | null; lifetime: string } {
  const lifetime = text(body, 'lifetime');
  const input = {
    name: text(body, 'name').trim(),
    resources: list(body, 'resources'),
    permissions: list(body, 'permissions'),
    expires_in_days: lifetime === 'never' ? null : /^\d{1,5}$/.test(lifetime) ? Number(lifetime) : -1,
  };
  const first = Value.Errors(NewKeyInBody, input).First();
  const field = first?.path.split('/')[1] ?? '';
  return { input, lifetime, error: first ? (FORM_FAULTS[field] ?? 'Check the form and try again.') : null };
}
