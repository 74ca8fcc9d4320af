import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
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
import { ErrorDetail, ErrorModel } from './console/common-schemas.js';
import { workspaceRoutes } from './workspaces/routes.js';
import { WorkspaceService } from './workspaces/service.js';
import type { Config } from './config.js';
import type { Clock } from './platform/clock.js';
import { SecretBox } from './platform/crypto.js';
import type { DatabaseHandle } from './platform/db/database.js';
import { Problem } from './platform/errors.js';
import { classifyHost, type Face } from './platform/http/host.js';
import { logRedact, logSerializers } from './platform/http/logging.js';
import { installProblemHandler } from './platform/http/problem-handler.js';
import { validatorCompiler } from './platform/http/validation.js';
import { MailOutbox } from './platform/mail/outbox.js';
import { devOutboxTransport, smtpTransport, type MailTransport } from './platform/mail/transport.js';
import { createMetrics } from './platform/metrics.js';
import { RateLimits } from './platform/rate-limit.js';
import { operationalRoutes } from './platform/http/operational-routes.js';
import compress from '@fastify/compress';
import { PlatformPlans } from './apis/platform-plans.js';
import { apiRoutes } from './apis/routes.js';
import { ApiService } from './apis/service.js';
import { customerRoutes } from './customers/routes.js';
import { CustomerService } from './customers/service.js';
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
import { SnapshotService } from './sdk-sync/snapshot.js';
import { UsageService } from './sdk-sync/usage.js';
import { receiptRetentionJob } from './jobs/retention.js';
import { signinRetentionJob } from './jobs/signin-retention.js';
import { Scheduler } from './jobs/scheduler.js';
import { devMailRoutes } from './platform/mail/dev-routes.js';
import { PersonAccounts } from './issuer/people/accounts.js';
import { PersonSessions } from './issuer/people/sessions.js';
import { AuthorizationService } from './issuer/protocol/authorization.js';
import { issuerRoutes } from './issuer/routes.js';
import { TokenService } from './issuer/tokens/service.js';
import { TokenBuckets } from './platform/token-bucket.js';
import { LogoCache } from './issuer/pages/logo.js';

declare module 'fastify' {
  interface FastifyRequest {
    face: Face;
  }
}

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  redis: Redis | null;
  /** Replaces the transport chosen from config (tests pass none and use SMTP_URL). */
  mailTransport?: MailTransport;
  /** Separates rate-limit counters of apps sharing one Redis (tests). */
  rateLimitPrefix?: string;
  logger?: boolean;
}

/** The composition root: one typed services object, built once and handed to the routes. */
export function buildServices(deps: AppDeps, log: (line: string) => void, onError: (error: unknown) => void) {
  const { config, clock } = deps;
  const db = deps.database.db;
  const metrics = createMetrics();
  const box = new SecretBox(config.secretKey);
  const rateLimits = new RateLimits(deps.redis, deps.rateLimitPrefix ?? 'gh');
  const transport =
    deps.mailTransport ??
    (config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : devOutboxTransport(log, `${config.baseUrl}/dev/mail`));
  const outbox = new MailOutbox(db, clock, transport, metrics, onError);
  const audit = new AuditService(db, clock);
  const accounts = new AccountsService(db, clock);
  const workspaces = new WorkspaceService(db, clock, outbox, audit, accounts, config.baseUrl);
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
  );
  const ledger = new LedgerService(db, clock, audit, apis);
  const customers: CustomerService = new CustomerService(db, clock, audit, apis, ledger, outbox);
  const plans = new PlanService(db, clock, audit, apis, (trx, apiId, ids) => customers.refreshPolicies(trx, apiId, ids));
  const stats: StatsService = new StatsService(db, clock, apis, customers, ledger);
  const snapshots = new SnapshotService(db, clock, apis);
  const signingKeys = new SigningKeys(db, clock, box);
  const registry = new RegistryService(db, clock, audit, apis, signingKeys);
  const people = new PeopleDirectory(db, clock, audit, apis);
  const personSessions = new PersonSessions(db, clock);
  const personAccounts = new PersonAccounts(db, clock, rateLimits, outbox);
  const tokens = new TokenService(db, clock, signingKeys);
  const authorization = new AuthorizationService(db, clock, personSessions, tokens, config.baseUrl.startsWith('https:'));
  const logos = new LogoCache(clock, config.outboundAllowPrivate);
  const tokenBuckets = new TokenBuckets(deps.redis, deps.rateLimitPrefix ?? 'gh', clock);
  const usage = new UsageService(db, clock, apis, ledger);
  const scheduler = new Scheduler(db, [receiptRetentionJob(clock), signinRetentionJob(clock)], (job, error) => onError(new Error(`job ${job} failed: ${String(error)}`)));
  return {
    config, clock, db, database: deps.database, metrics, box, rateLimits, outbox, audit, accounts, workspaces, auth,
    platformPlans, apis, ledger, customers, plans, stats, snapshots, usage, scheduler, signingKeys, registry, people,
    personSessions, personAccounts, tokens, authorization, tokenBuckets, logos,
  };
}

export type Services = ReturnType<typeof buildServices>;

export async function buildApp(deps: AppDeps): Promise<{ app: FastifyInstance; services: Services }> {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger === false ? false : { level: config.logLevel, redact: logRedact, serializers: logSerializers },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    genReqId: () => randomUUID(),
    forceCloseConnections: 'idle',
    ajv: { customOptions: { allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // Console bodies are JSON only: a cross-site HTML form cannot send JSON, which closes that door.
  app.removeContentTypeParser('text/plain');

  const services = buildServices(deps, (line) => app.log.info(line), (error) => app.log.error({ err: error }, 'background task failed'));
  const secureCookies = config.baseUrl.startsWith('https:');

  installProblemHandler(app);
  app.addSchema(ErrorDetail);
  app.addSchema(ErrorModel);
  await app.register(cookie);
  await app.register(helmet, { contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"] } } });
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

  // Set by the first hook of every request; null only before it runs.
  app.decorateRequest('face', null as never);
  app.addHook('onRequest', async (request) => {
    request.face = classifyHost(request.headers.host, config.consoleHost, config.portalDomain);
  });
  // Graceful shutdown: connections idle at close are closed at once, but one busy with a request
  // would stay open for the keep-alive timeout after answering. Answers sent while closing say
  // `Connection: close`, so the client hangs up and the process can exit.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = { route: request.routeOptions.url ?? 'unmatched', method: request.method, status: String(reply.statusCode) };
    services.metrics.requests.inc(labels);
    services.metrics.latency.observe(labels, reply.elapsedTime / 1000);
  });

  await app.register(operationalRoutes(services));

  // The console face: only on the console host; any other host gets 404 for these paths.
  await app.register(async (consoleApp) => {
    consoleApp.addHook('onRequest', async (request) => {
      if (request.face.kind !== 'console') throw new Problem('not_found');
    });
    await consoleApp.register(async (api) => {
      registerCallerHook(api, { accounts: services.accounts, workspaces: services.workspaces, consoleOrigin: config.baseUrl });
      await api.register(authRoutes(services.auth, secureCookies));
      await api.register(workspaceRoutes(services.workspaces, secureCookies));
      await api.register(auditRoutes(services.audit, services.workspaces));
      await api.register(apiRoutes(services.apis));
      await api.register(customerRoutes(services.customers));
      await api.register(ledgerRoutes(services.ledger));
      await api.register(planRoutes(services.plans));
      await api.register(statsRoutes(services.stats));
      await api.register(signinSettingsRoutes(services.registry, services.people));
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    }, { prefix: '/api' });
    await consoleApp.register(async (sdk) => {
      await sdk.register(compress, { global: true, threshold: 1024, encodings: ['gzip', 'deflate'] });
      await sdk.register(sdkSyncRoutes({ apis: services.apis, snapshots: services.snapshots, usage: services.usage }));
    });
    await consoleApp.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true, uiConfig: { url: '/api/openapi.json' } as never });
    if (!config.production) await consoleApp.register(devMailRoutes(services));
  });

  // The tenant face: every API's sign-in service, on its own host.
  await app.register(issuerRoutes(services, secureCookies));

  return { app, services };
}
