import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { addMs, HOUR } from '../../platform/clock.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import type { Db } from '../../platform/db/database.js';
import type { PersonSessions, LiveSession } from '../people/sessions.js';
import { findConsent, saveConsent } from '../people/queries.js';
import { findApp, findServerByResource, heldPermissions, serverPermissions } from '../registry/lookups.js';
import type { Tenant } from '../tenant.js';
import type { AuthorizationRequest, InteractionResult } from '../tokens/authorization-request.js';
import * as tq from '../tokens/queries.js';
import type { TokenService } from '../tokens/service.js';
import { decide, type Step } from './decide.js';
import { grantableScopes, isPermission } from './scopes.js';
import { sendAuthorizationResponse, sendAuthorizeErrorPage } from './responses.js';

/** How long a person has to finish signing in before the app must start again. */
export const INTERACTION_TTL_MS = HOUR;

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
  app: { name: string; origin: string };
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
  ) {}

  /** Continues a checked request: answers the client, or sends the person to the pages. */
  async proceed(tenant: Tenant, request: AuthorizationRequest, interaction: OpenInteraction | null, http: FastifyRequest, reply: FastifyReply) {
    const result = interaction?.result ?? {};
    const { session, scopes, step } = await this.#evaluate(tenant, request, result, http);
    if (step.kind === 'signin' || step.kind === 'choose' || step.kind === 'consent') {
      const token = interaction?.token ?? (await this.#open(tenant, request, reply));
      return reply.status(303).header('cache-control', 'no-store').redirect(interactionPath(token), 303);
    }
    if (interaction && !(await tq.completeInteraction(this.db, tenant.api.id, sha256Hex(interaction.token), this.clock.now()))) {
      return sendAuthorizeErrorPage(reply, tenant, 'This sign-in was already completed. Start again from the app.');
    }
    if (interaction) reply.clearCookie(interactionCookie(interaction.token), { path: '/' });
    if (step.kind === 'error') return sendAuthorizationResponse(reply, tenant, request, { error: step.error, error_description: step.description });
    if (result.consent === 'granted') {
      await saveConsent(this.db, {
        api_id: tenant.api.id, person_id: session!.person_id, client_id: request.clientId, resource: request.resource ?? '', scopes, updated_at: this.clock.now(),
      });
    }
    const code = await this.tokens.issueCode(tenant, request, { sessionId: session!.session_id, personId: session!.person_id, authTime: session!.auth_time, amr: session!.amr }, scopes);
    return sendAuthorizationResponse(reply, tenant, request, { code });
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
      app: { name: app?.name ?? 'Unknown app', origin: app?.origin ?? 'owner' },
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
    const remembered = session ? await this.#consentCovers(tenant, request, session.person_id, scopes) : false;
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

  async #open(tenant: Tenant, request: AuthorizationRequest, reply: FastifyReply): Promise<string> {
    const token = randomToken();
    const now = this.clock.now();
    await tq.insertInteraction(this.db, { token_hash: sha256Hex(token), api_id: tenant.api.id, request, created_at: now, expires_at: addMs(now, INTERACTION_TTL_MS) });
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
