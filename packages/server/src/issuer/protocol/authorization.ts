import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { addMs, HOUR } from '../../platform/clock.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import type { Db } from '../../platform/db/database.js';
import { networkOf } from '../../platform/http/network.js';
import type { BucketRule, TokenBuckets } from '../../platform/token-bucket.js';
import type { PersonSessions, LiveSession } from '../people/sessions.js';
import { findConsent, hasConsentedTo, saveConsent } from '../people/queries.js';
import { findApp, findServerByResource, heldPermissions, serverPermissions } from '../registry/lookups.js';
import type { Tenant } from '../tenant.js';
import type { AuthorizationRequest, InteractionResult } from '../tokens/authorization-request.js';
import * as tq from '../tokens/queries.js';
import type { TokenService } from '../tokens/service.js';
import { CONSENT_ASKS } from '../connected-apps/limits.js';
import { hostOf } from '../connected-apps/redirect-rules.js';
import { decide, type Step } from './decide.js';
import { grantableScopes, isPermission } from './scopes.js';
import { sendAuthorizationResponse, sendAuthorizeErrorPage, sendAuthorizeErrorWithReturn } from './responses.js';

/** How long a person has to finish signing in before the app must start again. */
export const INTERACTION_TTL_MS = HOUR;

/**
 * New interactions per network, over every API: each is a row kept a day past its hour, and a
 * browser without a session makes one per request. A person starts a sign-in every few seconds at
 * most, and an office behind one address stays under 20 a minute with a morning rush of 60.
 */
export const NEW_INTERACTIONS: BucketRule = { name: 'new-interaction', ratePerS: 1 / 3, burst: 60 };

/** Where an error of an authorization request goes back to, and whose request it was. */
export type ErrorTarget = Pick<AuthorizationRequest, 'clientId' | 'redirectUri' | 'responseMode' | 'state' | 'connected'>;

/** The path of the pages that carry an interaction (sign-in, choices, consent). */
export const interactionPath = (token: string) => `/interaction/${token}`;
export const resumePath = (token: string) => `/oauth/authorize/resume/${token}`;

// One cookie per interaction binds it to the browser that started it, so a link to somebody
// else's interaction is useless in another browser.
export const interactionCookie = (token: string) => `gh_ia_${sha256Hex(token).slice(0, 12)}`;

export interface OpenInteraction {
  token: string;
  request: AuthorizationRequest;
  result: InteractionResult;
}

/** What the pages show for an interaction: the app, the server, the scopes and the step. */
export interface InteractionView {
  step: Step;
  /** `host`: where an app people connect comes from (its document's host, or where it sends people back). */
  app: { name: string; origin: string; host: string | null };
  server: { name: string; resourceUrl: string } | null;
  scopes: { name: string; description: string; sensitive: boolean; permission: boolean }[];
  loginHint: string | null;
  signupsOpen: boolean;
  session: LiveSession | null;
}

/**
 * The authorization endpoint's decisions (spec 4.2). It decides what is needed, hands an
 * interaction to the pages, and on resume finishes it; the pages never touch tokens.
 */
export class AuthorizationService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sessions: PersonSessions,
    private readonly tokens: TokenService,
    private readonly secureCookies: boolean,
    private readonly buckets: TokenBuckets,
  ) {}

  /** Continues a checked request: answers the client, or sends the person to the pages. */
  async proceed(tenant: Tenant, request: AuthorizationRequest, interaction: OpenInteraction | null, http: FastifyRequest, reply: FastifyReply) {
    const result = interaction?.result ?? {};
    const evaluated = await this.#evaluate(tenant, request, result, http);
    const { session, scopes } = evaluated;
    let step = evaluated.step;
    let opening: InteractionResult = {};
    if (step.kind === 'consent' && request.connected && !result.consentAsked) {
      // Spec 7: an app people connect that keeps asking one person for consent is refused (limits.ts).
      const ask = await this.buckets.take(CONSENT_ASKS, `${tenant.api.id}:${sha256Hex(request.clientId).slice(0, 32)}:${session!.person_id}`);
      if (!ask.allowed) step = { kind: 'error', error: 'access_denied', description: 'This app asked for consent too many times; try again later' };
      else if (interaction) await this.record(tenant, interaction, { consentAsked: true });
      else opening = { consentAsked: true };
    }
    if (step.kind === 'signin' || step.kind === 'choose' || step.kind === 'consent') {
      if (!interaction) {
        // Client and redirect URI are known good here, so the refusal goes back to the app (RFC 6749 4.1.2.1).
        const limit = await this.buckets.take(NEW_INTERACTIONS, networkOf(http.ip));
        if (!limit.allowed) {
          return this.sendError(tenant, request, { error: 'temporarily_unavailable', error_description: `Too many sign-ins were started from your network; try again in ${limit.retryAfterS} seconds` }, http, reply);
        }
      }
      const token = interaction?.token ?? (await this.#open(tenant, request, opening, reply));
      return reply.status(303).header('cache-control', 'no-store').redirect(interactionPath(token), 303);
    }
    if (interaction && !(await tq.completeInteraction(this.db, tenant.api.id, sha256Hex(interaction.token), this.clock.now()))) {
      return sendAuthorizeErrorPage(reply, tenant, 'This sign-in was already completed. Start again from the app.');
    }
    if (interaction) reply.clearCookie(interactionCookie(interaction.token), { path: '/' });
    if (step.kind === 'error') return this.sendError(tenant, request, { error: step.error, error_description: step.description }, http, reply, session?.person_id ?? null);
    if (result.consent === 'granted') {
      await saveConsent(this.db, {
        api_id: tenant.api.id, person_id: session!.person_id, client_id: request.clientId, resource: request.resource ?? '', scopes, updated_at: this.clock.now(),
      });
    }
    const code = await this.tokens.issueCode(tenant, request, { sessionId: session!.session_id, personId: session!.person_id, authTime: session!.auth_time, amr: session!.amr }, scopes);
    return sendAuthorizationResponse(reply, tenant, request, { code });
  }

  /**
   * An error of a checked request, sent back to the app only when its redirect URI is trusted
   * (RFC 9700 4.11.2, open redirection): the owner's apps always; an app people connect (anyone
   * can register one, or publish a document, naming any address) only once the person signed in
   * here has consented to it. Otherwise our page names the error and the app's host, and a link
   * takes the person back if they choose to go.
   */
  async sendError(tenant: Tenant, target: ErrorTarget, values: { error: string; error_description: string }, http: FastifyRequest, reply: FastifyReply, personId?: string | null) {
    if (await this.#redirectTrusted(tenant, target, http, personId)) return sendAuthorizationResponse(reply, tenant, target, values);
    return sendAuthorizeErrorWithReturn(reply, tenant, target, values);
  }

  async #redirectTrusted(tenant: Tenant, target: ErrorTarget, http: FastifyRequest, personId: string | null | undefined): Promise<boolean> {
    if (!target.connected) return true;
    const person = personId !== undefined ? personId : ((await this.sessions.current(tenant.api.id, http))?.person_id ?? null);
    return person !== null && (await hasConsentedTo(this.db, tenant.api.id, person, target.clientId));
  }

  /** The open interaction a page or the resume endpoint names, if this browser started it. */
  async interaction(tenant: Tenant, token: string, http: FastifyRequest): Promise<OpenInteraction | null> {
    if (token.length > 100 || http.cookies[interactionCookie(token)] !== token) return null;
    const row = await tq.findOpenInteraction(this.db, tenant.api.id, sha256Hex(token), this.clock.now());
    return row ? { token, request: row.request, result: row.result } : null;
  }

  /** Records what a page did (a sign-in, a choice, a consent answer); the resume endpoint reads it. */
  async record(tenant: Tenant, interaction: OpenInteraction, change: InteractionResult): Promise<void> {
    const result = { ...interaction.result, ...change };
    await tq.updateInteractionResult(this.db, tenant.api.id, sha256Hex(interaction.token), result);
    interaction.result = result;
  }

  /** Everything a page shows about an interaction, with the step the endpoint would take now. */
  async view(tenant: Tenant, interaction: OpenInteraction, http: FastifyRequest): Promise<InteractionView> {
    const { request } = interaction;
    const { session, scopes, step } = await this.#evaluate(tenant, request, interaction.result, http);
    const app = await findApp(this.db, tenant.api.id, request.clientId);
    const server = request.resource ? await findServerByResource(this.db, tenant.api.id, request.resource) : undefined;
    const permissions = server ? await serverPermissions(this.db, tenant.api.id, server.id) : [];
    return {
      step,
      app: {
        name: app?.name ?? 'Unknown app',
        origin: app?.origin ?? 'owner',
        host: app?.origin === 'metadata' ? hostOf(app.id) : app?.origin === 'registered' ? hostOf(request.redirectUri) : null,
      },
      server: server ? { name: server.name, resourceUrl: server.resource_url } : null,
      scopes: scopes.map((name) => {
        const permission = permissions.find((p) => p.name === name);
        return { name, description: permission?.description ?? '', sensitive: permission?.sensitive ?? false, permission: isPermission(name) };
      }),
      loginHint: request.loginHint,
      signupsOpen: tenant.settings.signups === 'open',
      session,
    };
  }

  /** The session, the scopes that would be granted, and the step spec 4.2 calls for now. */
  async #evaluate(tenant: Tenant, request: AuthorizationRequest, result: InteractionResult, http: FastifyRequest) {
    const session = await this.sessions.current(tenant.api.id, http);
    const scopes = session ? await this.#grantable(tenant, request, session.person_id) : request.scopes;
    // The service's own portal is no third party: a person consents to nothing by signing in to it.
    const remembered = session ? request.firstParty === true || (await this.#consentCovers(tenant, request, session.person_id, scopes)) : false;
    const step = decide({
      request,
      result,
      session: session && { sessionId: session.session_id, email: session.email, status: session.status, authTime: session.auth_time },
      consentRemembered: remembered,
      signupsOpen: tenant.settings.signups === 'open',
      now: this.clock.now(),
    });
    return { session, scopes, step };
  }

  async #open(tenant: Tenant, request: AuthorizationRequest, result: InteractionResult, reply: FastifyReply): Promise<string> {
    const token = randomToken();
    const now = this.clock.now();
    await tq.insertInteraction(this.db, { token_hash: sha256Hex(token), api_id: tenant.api.id, request, result, created_at: now, expires_at: addMs(now, INTERACTION_TTL_MS) });
    reply.setCookie(interactionCookie(token), token, { httpOnly: true, sameSite: 'lax', secure: this.secureCookies, path: '/', maxAge: INTERACTION_TTL_MS / 1000 });
    return token;
  }

  async #grantable(tenant: Tenant, request: AuthorizationRequest, personId: string): Promise<string[]> {
    if (!request.resource) return grantableScopes(request.scopes, new Set());
    const server = await findServerByResource(this.db, tenant.api.id, request.resource);
    const held = server ? await heldPermissions(this.db, tenant.api.id, personId, server.id) : new Set<string>();
    return grantableScopes(request.scopes, held);
  }

  async #consentCovers(tenant: Tenant, request: AuthorizationRequest, personId: string, scopes: string[]): Promise<boolean> {
    const consent = await findConsent(this.db, tenant.api.id, personId, request.clientId, request.resource ?? '');
    return consent !== undefined && scopes.every((scope) => consent.scopes.includes(scope));
  }
}
