import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../platform/clock.js';
import type { SecretBox } from '../platform/crypto.js';
import type { Db } from '../platform/db/database.js';
import { html } from '../platform/pages/html.js';
import { csrfToken } from '../platform/pages/csrf.js';
import type { PlatformPlans } from '../apis/platform-plans.js';
import type { CustomerMembers, MemberActor } from '../customers/members.js';
import type { CustomerPortalView } from '../customers/portal-view.js';
import type { LedgerService } from '../ledger/service.js';
import type { PlanService } from '../plans/service.js';
import type { PaymentsService } from '../payments/service.js';
import type { LiveSession, PersonSessions } from '../issuer/people/sessions.js';
import type { PersonAccounts } from '../issuer/people/accounts.js';
import type { Tenant } from '../issuer/tenant.js';
import type { TokenService } from '../issuer/tokens/service.js';
import type { EndUserKeys } from '../end-user-keys/service.js';
import type { TokenBuckets } from '../platform/token-bucket.js';
import { sendPortalPage, type PortalPage } from './layout.js';
import { CUSTOMER_COOKIE, type PortalSessions } from './session.js';

/** What the portal's routes are built from (the composition root hands it over). */
export interface PortalDeps {
  db: Db;
  clock: Clock;
  box: SecretBox;
  tokens: TokenService;
  personSessions: PersonSessions;
  personAccounts: PersonAccounts;
  members: CustomerMembers;
  view: CustomerPortalView;
  ledger: LedgerService;
  plans: PlanService;
  platformPlans: PlatformPlans;
  payments: PaymentsService;
  portal: PortalSessions;
  /** People's own API keys (pages/api-keys.ts), through the account API's rules. */
  endUserKeys: EndUserKeys;
  tokenBuckets: TokenBuckets;
  secureCookies: boolean;
}

export type Membership = Awaited<ReturnType<CustomerMembers['membershipsOf']>>[number];

/** One request of a signed-in member: who, for which customer, in which role. */
export interface PortalContext {
  tenant: Tenant;
  person: LiveSession;
  membership: Membership;
  memberships: Membership[];
  actor: MemberActor;
  csrf: string;
  request: FastifyRequest;
  reply: FastifyReply;
  /** Sends a portal page with this context's branding and footer. */
  page(page: Omit<PortalPage, 'removeBranding'>): FastifyReply;
}

/** Where a visitor goes to sign in, coming back to where they were. */
export function signInPath(next: string, options: { signup?: boolean; email?: string; maxAge?: number } = {}): string {
  const query = new URLSearchParams({ next });
  if (options.signup) query.set('signup', '1');
  if (options.email) query.set('email', options.email);
  // OIDC max_age: the issuer asks for the password again when the last sign-in is older.
  if (options.maxAge !== undefined) query.set('max_age', String(options.maxAge));
  return `/auth/signin?${query}`;
}

export const removesBranding = (deps: PortalDeps, tenant: Tenant) => deps.platformPlans.get(tenant.api.platform_plan).remove_branding;

/** A page outside the navigation bar (a state of the visitor's access), in the API's name. */
export function sendStatePage(deps: PortalDeps, tenant: Tenant, reply: FastifyReply, title: string, body: ReturnType<typeof html>, status = 200) {
  return sendPortalPage(reply, tenant, { title, body, status, nav: false, removeBranding: removesBranding(deps, tenant) });
}

/**
 * The context of a portal page, or null when the request was already answered: a visitor who is
 * not signed in goes to sign in; a person with no customer gets one if the API's signup_mode
 * allows (people who signed up before customers had members), else a page saying why; a customer
 * waiting for approval or suspended sees its state, unless the page is one they may still use.
 */
export async function portalContext(deps: PortalDeps, request: FastifyRequest, reply: FastifyReply, options: { inactiveAllowed?: boolean } = {}): Promise<PortalContext | null> {
  const tenant = request.tenant;
  const person = await deps.portal.current(tenant.api.id, request);
  if (!person) {
    const path = request.url.split('?')[0]!;
    reply.redirect(signInPath(request.method === 'GET' ? path : '/'), 303);
    return null;
  }
  const ref = { id: person.person_id, email: person.email, name: person.name };
  let memberships = await deps.members.membershipsOf(tenant.api.id, person.person_id);
  if (memberships.length === 0) {
    await deps.members.joinOnVisit(tenant.api.id, ref);
    memberships = await deps.members.membershipsOf(tenant.api.id, person.person_id);
  }
  const csrf = csrfToken(request, reply, deps.secureCookies);
  if (memberships.length === 0) {
    const body = tenant.api.signup_mode === 'invite'
      ? html`<h1>Access is by invitation</h1><p>${tenant.api.name} is open to invited customers only. Ask its team to invite ${person.email}, then use the link in their e-mail.</p>`
      : html`<h1>No account yet</h1><p>${tenant.api.name} is not taking new customers right now. Please try again later or contact its team.</p>`;
    sendStatePage(deps, tenant, reply, 'No access', html`${body}${signOutForm(csrf)}`, 403);
    return null;
  }
  const chosenId = request.cookies[CUSTOMER_COOKIE];
  const membership = memberships.find((m) => m.customer_id === chosenId) ?? memberships[0]!;
  if (membership.status !== 'active' && !options.inactiveAllowed) {
    const body = membership.status === 'pending'
      ? html`<h1>Waiting for approval</h1><p>Thanks for signing up, ${person.name}. The team of ${tenant.api.name} approves new customers by hand; we will e-mail ${person.email} when you are in.</p>`
      : html`<h1>Access suspended</h1><p>The access of ${membership.name} to ${tenant.api.name} is suspended. Contact its team to find out more.</p>`;
    sendStatePage(deps, tenant, reply, membership.status === 'pending' ? 'Waiting for approval' : 'Access suspended', html`${body}${signOutForm(csrf)}`);
    return null;
  }
  const actor: MemberActor = { apiId: tenant.api.id, customerId: membership.customer_id, person: ref, role: membership.role, ip: request.ip };
  return {
    tenant, person, membership, memberships, actor, csrf, request, reply,
    page: (page) => sendPortalPage(reply, tenant, { ...page, removeBranding: removesBranding(deps, tenant) }),
  };
}

/** The sign-out button of every page a signed-in person sees. */
export function signOutForm(csrf: string) {
  return html`<form method="post" action="/auth/signout"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="secondary" id="sign-out">Sign out</button></form>`;
}

/**
 * The status of a page that answers a refused payments call: the provider failing is 502, an
 * unknown plan 404, too many checkouts 429 (the page says when to try again), anything else 409.
 */
export function refusalStatus(code: string): number {
  return code === 'provider_error' ? 502 : code === 'not_found' ? 404 : code === 'rate_limited' ? 429 : 409;
}
