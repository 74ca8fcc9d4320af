import cookie, { type FastifyCookieOptions } from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { AccountsService } from './accounts/accounts.js';
import { authRoutes } from './accounts/routes.js';
import { AuthService } from './accounts/service.js';
import { auditRoutes } from './audit/routes.js';
import { AuditService } from './audit/service.js';
import { registerCallerHook } from './console/caller-hook.js';
import { registerNoBodyHook } from './console/no-body-hook.js';
import { InvitationLimits } from './workspaces/invitation-limits.js';
import { publicRoute } from './console/http.js';
import { ErrorDetail, ErrorModel } from './console/common-schemas.js';
import { workspaceRoutes } from './workspaces/routes.js';
import { WorkspaceService } from './workspaces/service.js';
import type { Config } from './config.js';
import type { Clock } from './platform/clock.js';
import { SecretBox } from './platform/crypto.js';
import type { DatabaseHandle } from './platform/db/database.js';
import { Problem } from './platform/errors.js';
import { jsonHeaders, securityHeaders } from './platform/http/security-headers.js';
import { classifyHost, isTenantFace, type Face } from './platform/http/host.js';
import { logDestination, logRedact, logSerializers } from './platform/http/logging.js';
import { httpServerFactory } from './platform/http/server-factory.js';
import { decodeCookieValue } from './platform/http/cookies.js';
import { installJsonParser } from './platform/http/json-body.js';
import { installProblemHandler, sendProblem } from './platform/http/problem-handler.js';
import { serializersOnFirstUse } from './platform/http/serialization.js';
import { validatorCompiler, validatorCompilerOnFirstUse } from './platform/http/validation.js';
import { MailOutbox } from './platform/mail/outbox.js';
import { devOutboxTransport, smtpTransport, type MailTransport } from './platform/mail/transport.js';
import { createMetrics } from './platform/metrics.js';
import { RateLimits } from './platform/rate-limit.js';
import { operationalRoutes } from './platform/http/operational-routes.js';
import { Lifecycle } from './platform/lifecycle.js';
import compress from '@fastify/compress';
import { PlatformPlans } from './apis/platform-plans.js';
import { apiRoutes } from './apis/routes.js';
import { ApiService } from './apis/service.js';
import { customerRoutes } from './customers/routes.js';
import { CustomerService } from './customers/service.js';
import { CustomerInvitations } from './customers/invitations.js';
import { CustomerMembers } from './customers/members.js';
import { CustomerPortalView } from './customers/portal-view.js';
import { portalRoutes } from './portal/routes.js';
import { PortalSessions } from './portal/session.js';
import { ledgerRoutes } from './ledger/routes.js';
import { LedgerService } from './ledger/service.js';
import { planRoutes } from './plans/routes.js';
import { signinSettingsRoutes } from './console/signin-settings/routes.js';
import { SigningKeys } from './issuer/keys/signing-keys.js';
import { PeopleDirectory } from './issuer/people/directory.js';
import { RegistryService } from './issuer/registry/service.js';
import { PlanService } from './plans/service.js';
import { statsRoutes } from './stats/routes.js';
import { StatsService } from './stats/service.js';
import { sdkSyncRoutes } from './sdk-sync/routes.js';
import { ChangeService } from './sdk-sync/changes.js';
import { ChangeWaiters } from './sdk-sync/waiters.js';
import { StreamSlots } from './sdk-sync/stream-slots.js';
import { SDK_WIRE_SCHEMAS } from './sdk-sync/wire-schemas.js';
import { SnapshotService } from './sdk-sync/snapshot.js';
import { UsageService } from './sdk-sync/usage.js';
import { receiptRetentionJob, sdkChangeRetentionJob } from './jobs/retention.js';
import { signinRetentionJob } from './jobs/signin-retention.js';
import { Scheduler } from './jobs/scheduler.js';
import { devMailRoutes } from './platform/mail/dev-routes.js';
import { PersonAccounts } from './issuer/people/accounts.js';
import { PersonSessions } from './issuer/people/sessions.js';
import { AuthorizationService } from './issuer/protocol/authorization.js';
import { answerMalformedUrl, answerUnknownPath, issuerErrorHandler, issuerRoutes } from './issuer/routes.js';
import { TokenService } from './issuer/tokens/service.js';
import { TokenBuckets } from './platform/token-bucket.js';
import { LOGO_CACHE_BYTES, LogoCache } from './platform/outbound/logo-cache.js';
import { DevProvider } from './payments/dev-provider.js';
import { devCheckoutPages } from './payments/dev-pages.js';
import { PaymentEvents } from './payments/events.js';
import { PaymentReceipts } from './payments/receipts.js';
import { AutoRecharge } from './payments/auto-recharge.js';
import { LowBalanceAlerts } from './payments/low-balance.js';
import { paymentRoutes } from './payments/routes.js';
import { customerPaymentRoutes } from './payments/customer-routes.js';
import { CustomerSubscriptions } from './payments/customer-subscriptions.js';
import { PaymentsService } from './payments/service.js';
import { StripeProvider } from './payments/stripe-provider.js';
import { webhookRoutes } from './payments/webhook-routes.js';
import { autoRechargeJob, devRenewalsJob, lowBalanceJob, paymentGraceJob, planSyncJob, receiptsJob } from './jobs/payments.js';
import { ClientDirectory } from './issuer/connected-apps/client-directory.js';
import { MetadataDocuments } from './issuer/connected-apps/metadata-documents.js';
import { Registration } from './issuer/connected-apps/registration.js';
import { connectedAppsCleanupJob } from './jobs/connected-apps-cleanup.js';
import { EndUserKeys } from './end-user-keys/service.js';
import { DnsChecker } from './domains/dns-check.js';
import { domainRoutes } from './domains/routes.js';
import { DomainService } from './domains/service.js';
import { tlsRoutes } from './domains/tls-routes.js';
import { domainChecksJob } from './jobs/domain-checks.js';
import { KeyIntrospector } from './end-user-keys/introspection.js';
import { endUserKeyReminderJob, endUserKeyRetentionJob } from './jobs/end-user-keys.js';
import { ChangeFeed } from './platform/db/change-feed.js';
import { WebhookDelivery } from './webhooks/delivery.js';
import { webhookEndpointRoutes } from './webhooks/routes.js';
import { WebhookService } from './webhooks/service.js';
import { allowanceThresholdJob, sdkDisconnectJob, webhookEventRetentionJob } from './jobs/webhooks.js';
import { CachedReads } from './issuer/cached-reads.js';
import { webAppRoutes } from './console/web-app/routes.js';

declare module 'fastify' {
  interface FastifyRequest {
    face: Face;
  }
}

/** The console host as a route constraint: exactly it, in any letter case. */
export const consoleHostPattern = (host: string) => new RegExp(`^${host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i');

/** The largest body any route takes (the SDK's usage reports of 1,000 items need about this). */
const BODY_LIMIT = 1024 * 1024;

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  redis: Redis | null;
  /** Replaces the transport chosen from config (tests pass none and use SMTP_URL). */
  mailTransport?: MailTransport;
  /** Separates rate-limit counters of apps sharing one Redis (tests). */
  rateLimitPrefix?: string;
  /**
   * Tests only: a certificate authority that fetches of client metadata documents trust beside
   * the usual roots, so a test can serve documents over https. Never set outside tests: no
   * setting or environment variable reaches it.
   */
  outboundTestCa?: string;
  logger?: boolean;
  /**
   * Compile every route's validators and response serializers at start, as Fastify does by
   * default, instead of at each one's first use (the default: a start in seconds, and tests start
   * hundreds of apps). A test sets it to prove every schema compiles.
   */
  compileSchemasAtStart?: boolean;
  /** Tests: how long a plugin may take to register (Fastify's default, 10 s of wall time, fails app starts on a machine busy with other work). */
  pluginTimeoutMs?: number;
}

/** The composition root: one typed services object, built once and handed to the routes. */
export function buildServices(deps: AppDeps, log: (line: string) => void, onError: (error: unknown) => void) {
  const { config, clock } = deps;
  const db = deps.database.db;
  const metrics = createMetrics();
  const box = new SecretBox(config.secretKey);
  const rateLimits = new RateLimits(deps.redis, deps.rateLimitPrefix ?? 'gh');
  // Mail with nowhere to go stays in the outbox, readable at /dev/mail outside production.
  const devOutbox = !deps.mailTransport && !config.smtpUrl;
  const transport =
    deps.mailTransport ??
    (config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : devOutboxTransport(log, `${config.baseUrl}/dev/mail`));
  const outbox = new MailOutbox(db, clock, transport, metrics, onError);
  const audit = new AuditService(db, clock);
  const accounts = new AccountsService(db, clock);
  const invitationLimits = new InvitationLimits(rateLimits);
  const workspaces = new WorkspaceService(db, clock, outbox, audit, accounts, config.baseUrl, invitationLimits, (workspaceId) => apis.workspaceHasTeams(workspaceId));
  const auth = new AuthService(db, clock, box, rateLimits, outbox, accounts, workspaces, config.baseUrl);
  const platformPlans = new PlatformPlans(config.platformPlansFile ?? undefined);
  // The closures below are called only after every service exists.
  const apis: ApiService = new ApiService(
    db, clock, box, audit, workspaces, platformPlans,
    { baseUrl: config.baseUrl, portalDomain: config.portalDomain },
    async (apiIds) => {
      const [customerCounts, requests] = await Promise.all([customers.countsByApi(apiIds), stats.monthRequestsByApi(apiIds)]);
      return new Map(apiIds.map((id) => [id, { customers: customerCounts.get(id) ?? 0, monthRequests: requests.get(id) ?? 0 }]));
    },
    (trx, apiId) => customers.refreshPolicies(trx, apiId),
    { paymentsOut: (apiId) => payments.paymentsOut(apiId), purchasable: (plan) => payments.purchasable(plan), endBilling: (apiId) => payments.endBilling(apiId) },
    (api) => domains.domainOut(api),
  );
  const domains: DomainService = new DomainService(db, clock, audit, apis, new DnsChecker(config.dnsServers, config.customDomains.caaIssuers), rateLimits, {
    cnameTarget: config.customDomains.cnameTarget,
    portalDomain: config.portalDomain,
    consoleHostName: new URL(config.baseUrl).hostname,
  });
  const ledger = new LedgerService(db, clock, audit, apis);
  const customers: CustomerService = new CustomerService(db, clock, audit, apis, ledger, outbox);
  const customerInvitations = new CustomerInvitations(db, clock, audit, apis, outbox, invitationLimits);
  const customerMembers = new CustomerMembers(db, clock, audit, apis, customers, outbox, invitationLimits);
  const customerPortalView = new CustomerPortalView(db, clock, audit, customers);
  const plans = new PlanService(db, clock, audit, apis, (trx, apiId, ids) => customers.refreshPolicies(trx, apiId, ids), (apiId) => void payments.syncPlans(apiId), (apiId, planId) => payments.expireCheckoutsOfPlan(apiId, planId).then(() => undefined, onError));
  // Payments (issue 13): Stripe when configured, else the development provider (config.ts).
  const devProvider = config.payments.kind === 'dev' ? new DevProvider(db, clock, config.baseUrl, config.secretKey) : null;
  const provider = config.payments.kind === 'stripe' ? new StripeProvider(config.payments.secretKey, config.payments.webhookSecrets, config.payments.apiUrl) : devProvider;
  const receipts = new PaymentReceipts(db, clock, outbox, apis, customers, provider, onError);
  const autoRecharge = new AutoRecharge(db, clock, outbox, audit, apis, customers, (input) => payments.chargeAutoRecharge(input), onError);
  const paymentEvents = new PaymentEvents(db, clock, apis, customers, ledger, plans, audit, receipts, autoRecharge, outbox);
  const payments: PaymentsService = new PaymentsService(db, clock, audit, apis, customers, plans, provider, paymentEvents, receipts, autoRecharge, new LowBalanceAlerts(db, outbox, apis, customers), config.baseUrl, onError, outbox, rateLimits);
  // The development provider sends its events through the webhook path, as a request to it would.
  devProvider?.deliverTo((raw, signature) => payments.receiveWebhook('dev', raw, signature));
  const customerSubscriptions = new CustomerSubscriptions(db, audit, apis, customers, payments, receipts);
  const stats: StatsService = new StatsService(db, clock, apis, customers, ledger, (apiId) => payments.ready(apiId));
  const snapshots = new SnapshotService(db, clock, apis, deps.database.kind === 'postgres', StreamSlots.forPool(deps.database.poolSize));
  // What changed for SDKs after a cursor (issue 27): recorded by triggers, read here.
  const sdkChanges = new ChangeService(db, clock, snapshots);
  // Per-node caches and the notifications that keep them true; buildApp starts listening.
  const changes = new ChangeFeed();
  // Long polls of SDKs following changes, woken through the feed (issue 27).
  const sdkWaiters = new ChangeWaiters(changes);
  const issuerReads = new CachedReads(db, changes);
  const signingKeys = new SigningKeys(db, clock, box, changes);
  const registry = new RegistryService(db, clock, audit, apis, signingKeys);
  const people = new PeopleDirectory(db, clock, audit, apis);
  const personSessions = new PersonSessions(db, clock);
  const personAccounts = new PersonAccounts(db, clock, rateLimits, outbox, customerMembers);
  const tokens = new TokenService(db, clock, signingKeys);
  const tokenBuckets = new TokenBuckets(deps.redis, deps.rateLimitPrefix ?? 'gh', clock);
  const authorization = new AuthorizationService(db, clock, personSessions, tokens, config.baseUrl.startsWith('https:'), tokenBuckets);
  const logos = new LogoCache(clock, config.outboundAllowPrivate, LOGO_CACHE_BYTES, deps.outboundTestCa);
  const metadataDocuments = new MetadataDocuments(clock, { allowPrivateAddresses: config.outboundAllowPrivate, ...(deps.outboundTestCa ? { extraCa: deps.outboundTestCa } : {}) });
  const clients = new ClientDirectory(db, clock, metadataDocuments, platformPlans, tokenBuckets, issuerReads, apis);
  const registration = new Registration(db, clock, apis, clients, tokenBuckets);
  const usage = new UsageService(db, clock, apis, ledger);
  const endUserKeys = new EndUserKeys(db, clock, audit, outbox, platformPlans);
  const keyIntrospector = new KeyIntrospector(db, clock, platformPlans);
  // Events to owners (issue 24): the console's endpoints and events, and the delivery loop.
  const webhooks = new WebhookService(db, clock, box, audit, apis, { allowPrivateAddresses: config.outboundAllowPrivate });
  const webhookDelivery = new WebhookDelivery(db, clock, box, outbox, apis, workspaces, { baseUrl: config.baseUrl, allowPrivateAddresses: config.outboundAllowPrivate }, onError);
  // One job per line: every capability adds its own.
  const jobs = [
    receiptRetentionJob(clock),
    sdkChangeRetentionJob(clock),
    signinRetentionJob(clock),
    connectedAppsCleanupJob(clock),
    planSyncJob(payments),
    paymentGraceJob(payments),
    receiptsJob(payments),
    autoRechargeJob(payments),
    lowBalanceJob(payments),
    ...(devProvider ? [devRenewalsJob(devProvider)] : []),
    domainChecksJob(domains),
    endUserKeyRetentionJob(clock),
    endUserKeyReminderJob(clock, outbox, (slug) => apis.portalUrl(slug)),
    webhookEventRetentionJob(clock),
    sdkDisconnectJob(apis),
    allowanceThresholdJob(apis),
  ];
  const scheduler = new Scheduler(db, jobs, (job, error) => onError(new Error(`job ${job} failed: ${String(error)}`)));
  const lifecycle = new Lifecycle();
  return {
    config, clock, db, database: deps.database, devOutbox, metrics, box, rateLimits, outbox, audit, accounts, workspaces, auth,
    platformPlans, apis, domains, ledger, customers, customerInvitations, customerMembers, customerPortalView, plans, stats, snapshots, sdkChanges, usage, scheduler, signingKeys, registry, people,
    personSessions, personAccounts, tokens, authorization, tokenBuckets, logos, payments, customerSubscriptions, devProvider, metadataDocuments, clients, registration, endUserKeys, keyIntrospector,
    changes, sdkWaiters, issuerReads, webhooks, webhookDelivery, lifecycle,
  };
}

export type Services = ReturnType<typeof buildServices>;

export async function buildApp(deps: AppDeps): Promise<{ app: FastifyInstance; services: Services }> {
  const { config } = deps;
  const stream = deps.logger === false ? undefined : await logDestination(config.logFormat);
  const app = Fastify({
    logger: deps.logger === false ? false : { level: config.logLevel, redact: logRedact, serializers: logSerializers, ...(stream ? { stream } : {}) },
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT,
    genReqId: () => randomUUID(),
    ...(deps.pluginTimeoutMs === undefined ? {} : { pluginTimeout: deps.pluginTimeoutMs }),
    forceCloseConnections: 'idle',
    // Request timeouts and the per-address connection cap (docs/operations.md).
    serverFactory: httpServerFactory(config),
    // A path Fastify cannot decode (bad percent-encoding) is the client's error, answered in the
    // shape of the face it was sent to rather than as Fastify's own 400. A path parameter over the
    // router's 100 characters names nothing (every id, slug and token we make is shorter): it gets
    // the face's own not-found answer, as an unknown id of 100 characters does, not Fastify's 414.
    frameworkErrors: (error, request, reply) => {
      const face = classifyHost(request.headers.host, config.consoleHost, config.portalDomain);
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      if (isTenantFace(face)) return tooLong ? answerUnknownPath(request, reply) : answerMalformedUrl(request, reply);
      return sendProblem(reply, request, tooLong ? new Problem('not_found', 'Nothing here has a path parameter over 100 characters') : new Problem('bad_request', error.message));
    },
    ...(deps.compileSchemasAtStart ? {} : { schemaController: { compilersFactory: { buildSerializer: serializersOnFirstUse } } }),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(deps.compileSchemasAtStart ? validatorCompiler : validatorCompilerOnFirstUse);
  installJsonParser(app, BODY_LIMIT);
  // Console bodies are JSON only: a cross-site HTML form cannot send JSON, which closes that door.
  app.removeContentTypeParser('text/plain');

  const services = buildServices(deps, (line) => app.log.info(line), (error) => app.log.error({ err: error }, 'background task failed'));
  services.changes.start(deps.database);
  app.addHook('onClose', () => services.changes.stop());
  const secureCookies = config.baseUrl.startsWith('https:');

  installProblemHandler(app, { applies: (request) => isTenantFace(request.face), handler: issuerErrorHandler });
  // Each face answers an unknown path in its own shape.
  app.setNotFoundHandler((request, reply) => (isTenantFace(request.face) ? answerUnknownPath(request, reply) : sendProblem(reply, request, new Problem('not_found'))));
  app.addSchema(ErrorDetail);
  app.addSchema(ErrorModel);
  for (const schema of SDK_WIRE_SCHEMAS) app.addSchema(schema);
  // parseOptions reach the cookie parser at run time (its types only name the serializer's options,
  // and the serializer ignores what it does not know).
  await app.register(cookie, { parseOptions: { decode: decodeCookieValue } as unknown as FastifyCookieOptions['parseOptions'] });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Gatehouse console API', version: '1.0.0', description: 'Owner accounts, workspaces and everything an API owner manages.' },
      servers: [{ url: config.baseUrl }],
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'gh_session' }, workspaceKey: { type: 'http', scheme: 'bearer' }, sdkSecret: { type: 'http', scheme: 'bearer', description: 'the API\'s SDK secret (mas_…)' } } },
      security: [{ session: [] }, { workspaceKey: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  // One synchronous hook where there were three (helmet's two and the face's), since every request
  // of every face pays it (issue 28): the face, the security headers (computed once; a JSON
  // endpoint of the sign-in service gets only those a JSON reader heeds), and the request's entry
  // among those in flight, for the log line of a shutdown that has to abandon them.
  const pageHeaders = securityHeaders({ contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"] } } });
  const jsonOnlyHeaders = jsonHeaders(pageHeaders);
  app.decorateRequest('face', null as never);
  app.addHook('onRequest', (request, reply, done) => {
    request.face = classifyHost(request.headers.host, config.consoleHost, config.portalDomain);
    const raw = reply.raw;
    for (const [name, value] of request.routeOptions.config.jsonOnly ? jsonOnlyHeaders : pageHeaders) raw.setHeader(name, value);
    services.lifecycle.requestStarted(request.id, request);
    done();
  });
  // Graceful shutdown: connections idle at close are closed at once, but one busy with a request
  // would stay open for the keep-alive timeout after answering. Answers sent while closing say
  // `Connection: close`, so the client hangs up and the process can exit.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    // SDKs holding a long poll get their (empty) answer now instead of at the end of their wait.
    services.sdkWaiters.close();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onRequestAbort', (request, done) => {
    services.lifecycle.requestEnded(request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    services.lifecycle.requestEnded(request.id);
    services.metrics.recordRequest(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  await app.register(operationalRoutes({ db: services.db, metrics: services.metrics, lifecycle: services.lifecycle, metricsAccess: { token: config.metricsToken, trustProxy: config.trustProxy } }));
  // The reverse proxy's question before it gets a certificate (Caddy's on-demand TLS `ask`).
  await app.register(tlsRoutes(services.domains));

  // The console face: only on the console host; any other host gets 404 for these paths.
  await app.register(async (consoleApp) => {
    // Routes of the console face match on the console host only, so the tenant face may use the
    // same paths (`/`, `/invites/…`) on every other host, custom domains included.
    consoleApp.addHook('onRoute', (route) => {
      route.constraints = { ...route.constraints, host: consoleHostPattern(config.consoleHost) };
    });
    consoleApp.addHook('onRequest', async (request) => {
      if (request.face.kind !== 'console') throw new Problem('not_found');
    });
    await consoleApp.register(async (api) => {
      registerCallerHook(api, { accounts: services.accounts, workspaces: services.workspaces, consoleOrigin: config.baseUrl });
      registerNoBodyHook(api);
      await api.register(authRoutes(services.auth, secureCookies));
      await api.register(workspaceRoutes(services.workspaces, secureCookies));
      await api.register(auditRoutes(services.audit, services.workspaces));
      await api.register(apiRoutes(services.apis, services.logos));
      await api.register(customerRoutes(services.customers, services.customerInvitations));
      await api.register(ledgerRoutes(services.ledger));
      await api.register(planRoutes(services.plans));
      await api.register(statsRoutes(services.stats));
      await api.register(paymentRoutes(services.payments));
      await api.register(customerPaymentRoutes(services.customerSubscriptions));
      await api.register(domainRoutes(services.domains));
      await api.register(signinSettingsRoutes(services.registry, services.people));
      await api.register(webhookEndpointRoutes(services.webhooks));
      api.get('/openapi.json', { ...publicRoute, schema: { hide: true } }, async () => app.swagger());
    }, { prefix: '/api' });
    await consoleApp.register(async (sdk) => {
      await sdk.register(compress, { global: true, threshold: 1024, encodings: ['gzip', 'deflate'] });
      await sdk.register(sdkSyncRoutes({ apis: services.apis, snapshots: services.snapshots, changes: services.sdkChanges, waiters: services.sdkWaiters, usage: services.usage }));
    });
    await consoleApp.register(webhookRoutes(services.payments));
    if (services.devProvider) await consoleApp.register(devCheckoutPages(services.devProvider, { origin: config.baseUrl, secureCookies }));
    await consoleApp.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true, uiConfig: { url: '/api/openapi.json' } as never });
    // The outbox is readable only where mail has nowhere else to go: with SMTP configured it would
    // hand anyone the codes and links that were mailed to others.
    if (!config.production && services.devOutbox) await consoleApp.register(devMailRoutes(services));
    // Last: the console web app answers every other GET on this host (its router shows the page).
    await consoleApp.register(webAppRoutes());
  });

  // The tenant face: every API's sign-in service and customer portal, on its own host.
  const portal = new PortalSessions(services.box, services.personSessions, services.clock, secureCookies);
  await app.register(issuerRoutes(services, secureCookies, portalRoutes({
    db: services.db, clock: services.clock, box: services.box, tokens: services.tokens, personSessions: services.personSessions, personAccounts: services.personAccounts,
    members: services.customerMembers, view: services.customerPortalView, ledger: services.ledger, plans: services.plans, platformPlans: services.platformPlans, payments: services.payments, portal,
    endUserKeys: services.endUserKeys, tokenBuckets: services.tokenBuckets, secureCookies,
  })));

  return { app, services };
}
