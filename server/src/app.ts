import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { BODY_LIMIT_BYTES, routes, UPLOAD_MAX_BYTES } from '@kamai/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { Database } from './db/client';
import { accountHandlers, createAccountService } from './features/account';
import {
  adminHandlers,
  createAdminUsersService,
  createDashboardService,
  createExportService,
  type PendingWithdrawals,
} from './features/admin';
import { authHandlers, createAuthService } from './features/auth';
import { healthHandlers } from './features/health';
import { createIntroService, introHandlers } from './features/intro';
import {
  createLinkedAccountsService,
  createLinkedAdminService,
  findAccountByPhone,
  type LinkProvider,
  linkedAccountsHandlers,
  sandboxLinkProvider,
} from './features/linked-accounts';
import { createNoticesAdminService, createNoticesService, noticesHandlers } from './features/notices';
import { createOtpService, type OtpSender, otpHandlers, sandboxSender, smtpSender } from './features/otp';
import { createPayoutAccountsService, payoutAccountsHandlers } from './features/payout-accounts';
import type { PayoutGateway } from './features/payouts';
import { createPayoutsService, createSandboxGateway, payoutsHandlers } from './features/payouts';
import { createReferralsService, referralsHandlers } from './features/referrals';
import { createRevenueService, revenueHandlers } from './features/revenue';
import { createSurveyService, surveyHandlers } from './features/survey';
import { createTasksService, tasksHandlers } from './features/tasks';
import { createUploadsService, diskFileStore, type FileStore, serveUploads, uploadsHandlers } from './features/uploads';
import { createUsersService, usersHandlers } from './features/users';
import { createWalletService, walletHandlers } from './features/wallet';
import { createWithdrawalsService, pendingFigure, withdrawalsHandlers } from './features/withdrawals';
import { auditHandlers } from './platform/audit.routes';
import { createAuditService } from './platform/audit.service';
import type { Config } from './platform/config';
import { installErrorHandler, sendError } from './platform/error-handler';
import { createJobRunner } from './platform/jobs';
import { createMetrics, serveMetrics } from './platform/metrics';
import { pruneOldRows } from './platform/prune';
import { type RateCounters, redisCounters, WindowCounter } from './platform/rate-limit';
import { registerRoutes } from './platform/routes';
import { securityHeaders } from './platform/security-headers';
import { responseSerializerCompiler } from './platform/serializer';
import { putSettingOnce } from './platform/settings.queries';
import { serveApps, type WebRoots } from './platform/web';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface AppDeps {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Real SMS delivery; without it codes go to the sandbox outbox and log. */
  smsSender?: OtpSender;
  /** The messaging provider of linked accounts; the sandbox when absent (DESIGN.md §2). */
  linkProvider?: LinkProvider;
  /** Where uploads are kept; a disk folder under `DATA_DIR/uploads` when absent. */
  fileStore?: FileStore;
  now?: () => Date;
  webRoots?: WebRoots;
  /** The dashboard's pending-withdrawal figure; without it the dashboard answers `pending: null`. */
  pendingWithdrawals?: PendingWithdrawals;
  /** A real payout gateway; without it the "masterpay" sandbox pays (after SANDBOX_PAYOUT_DELAY_MS). */
  payoutGateway?: PayoutGateway;
  /** Check every response with zod too (serializer.ts); by default under NODE_ENV test or development. */
  checkResponses?: boolean;
}

/** PAYOUT_GATEWAY_SECRET, else one generated on first start and kept in settings (shared by instances). */
async function payoutSecret(config: Config, database: Database) {
  if (config.PAYOUT_GATEWAY_SECRET) return config.PAYOUT_GATEWAY_SECRET;
  return putSettingOnce(database.db, 'payout_gateway_secret', randomBytes(32).toString('hex'));
}

/** Our callback's URL for the gateway: under PUBLIC_URL, else at the address this process listens on. */
function callbackUrl(config: Config, address: () => AddressInfo | string | null) {
  const path = routes.payNotifyMasterpay.path;
  if (config.PUBLIC_URL) return new URL(path, config.PUBLIC_URL).toString();
  const bound = address();
  if (!bound || typeof bound === 'string') return `http://127.0.0.1:${config.PORT}${path}`;
  const host = ['0.0.0.0', '::'].includes(bound.address)
    ? '127.0.0.1'
    : bound.family === 'IPv6'
      ? `[${bound.address}]`
      : bound.address;
  return `http://${host}:${bound.port}${path}`;
}

/** Builds the whole app without listening: `main.ts` starts it, tests call `inject`. */
export async function buildApp(deps: AppDeps) {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.LOG_LEVEL },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    // Refused in the envelope by the hook below instead (Fastify's own 503 body is not the envelope).
    return503OnClosing: false,
    // A path that cannot be decoded or a parameter past maxParamLength: refused before routing, in the envelope.
    frameworkErrors: (_error, request, reply) => sendError(request, reply, 'validation_failed', 400, {}),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(
    responseSerializerCompiler({
      check: deps.checkResponses ?? ['test', 'development'].includes(process.env.NODE_ENV ?? ''),
    }),
  );
  app.decorateRequest('authUser', undefined);
  app.decorateRequest('sessionHash', undefined);
  // Every response, API and app alike, carries the request id and helmet's headers, set before the
  // handler runs so a route may still override one.
  const headers = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
  // Shutting down (SIGTERM): a request that still arrives on a kept-alive connection is refused with 503
  // in the envelope and `Connection: close` (set by Fastify), so the client retries on another instance.
  // Registered before the job runner's preClose hook: the refusal starts as soon as closing does.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    reply.header('retry-after', '2');
    return sendError(request, reply, 'service_unavailable', 503, {});
  });
  installErrorHandler(app);
  // Upload size is checked per type while streaming; this is only the outer bound of one part.
  await app.register(fastifyMultipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 11 } });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Kamai API', version: '0.1.0', description: 'Every response is {code, message, key, data}.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  const now = deps.now ?? (() => new Date());
  const wallet = createWalletService({ db: database.db });
  const pending = deps.pendingWithdrawals ?? pendingFigure;
  const metrics = createMetrics({
    checkLedger: () => wallet.checkLedger(),
    ledgerCheckSeconds: config.METRICS_LEDGER_CHECK_SECONDS,
    pendingWithdrawals: () => pending(database.db),
    pool: database.pool,
    now: () => now().getTime(),
  });
  metrics.install(app);
  database.retries.onRetry = (info) => {
    metrics.onTransactionRetry(info);
    app.log.warn(info, 'transaction retried');
  };
  const counters = await rateCounters(app, config, () => now().getTime(), metrics.onCounterFallback);
  const email = config.SMTP_URL ? smtpSender(config.SMTP_URL, config.SMTP_FROM) : sandboxSender(database.db, app.log);
  const sms = deps.smsSender ?? sandboxSender(database.db, app.log);
  const otp = createOtpService({ db: database.db, config, counters, senders: { sms, email }, now });
  const auth = createAuthService({ db: database.db, config, otp, counters, now });
  const users = createUsersService({ db: database.db, now });
  const fileStore = deps.fileStore ?? diskFileStore(resolve(config.DATA_DIR, 'uploads'));
  const uploads = createUploadsService({ db: database.db, store: fileStore, tempDir: resolve(config.DATA_DIR, 'tmp') });
  const tasks = createTasksService({ db: database.db, now, uploads });
  const survey = createSurveyService({ db: database.db, now });
  const intro = createIntroService({ db: database.db, now });
  const account = createAccountService({ db: database.db, now });
  const referrals = createReferralsService({ db: database.db });
  const revenue = createRevenueService({ db: database.db });
  const linkProvider =
    deps.linkProvider ??
    sandboxLinkProvider({
      now,
      statusOf: async (phone) => (await findAccountByPhone(database.db, phone))?.status,
    });
  const linked = createLinkedAccountsService({ db: database.db, provider: linkProvider, now });
  const linkedAdmin = createLinkedAdminService({ db: database.db, now });
  const notices = createNoticesService({ db: database.db, now });
  const noticesAdmin = createNoticesAdminService({ db: database.db, now });
  const adminUsers = createAdminUsersService({ db: database.db });
  const dashboard = createDashboardService({
    db: database.db,
    now,
    pendingWithdrawals: pending,
  });
  const exports = createExportService({ db: database.db, now });
  const audit = createAuditService({ db: database.db });
  const payoutAccounts = createPayoutAccountsService({ db: database.db, now });

  const secret = await payoutSecret(config, database);
  const sandbox = createSandboxGateway({
    db: database.db,
    now,
    secret,
    delayMs: config.SANDBOX_PAYOUT_DELAY_MS,
    failureRate: config.SANDBOX_PAYOUT_FAILURE_RATE,
  });
  const leaseMs = config.JOB_LEASE_SECONDS * 1000;
  const reconcileAfterMs = config.PAYOUT_RECONCILE_AFTER_SECONDS * 1000;
  const payouts = createPayoutsService({
    db: database.db,
    now,
    log: app.log,
    gateway: deps.payoutGateway ?? sandbox.gateway,
    secret,
    notifyUrl: () => callbackUrl(config, () => app.server.address()),
    reconcileAfterMs,
    // Well inside the job's lease, so a slow gateway cannot let a second instance claim the same job.
    dispatchTimeoutMs: Math.floor(leaseMs / 2),
    wakeJobs: () => jobs.wake(),
  });
  const withdrawals = createWithdrawalsService({ db: database.db, now, payouts });
  const jobs = createJobRunner({
    db: database.db,
    handlers: { ...payouts.jobHandlers, ...sandbox.jobHandlers },
    now,
    log: app.log,
    leaseMs,
    workers: config.JOB_WORKERS,
    periodic: [
      {
        name: 'payouts.reconcile',
        everyMs: Math.min(60_000, reconcileAfterMs),
        run: async () => {
          await payouts.reconcile();
        },
      },
      {
        name: 'prune',
        everyMs: 3_600_000,
        run: async () => {
          const pruned = await pruneOldRows({
            db: database.db,
            now,
            jobRetentionHours: config.JOB_RETENTION_HOURS,
            idempotencyRetentionHours: config.IDEMPOTENCY_RETENTION_HOURS,
          });
          if (pruned.jobs + pruned.keys > 0) app.log.info({ pruned }, 'pruned finished jobs and old idempotency keys');
        },
      },
    ],
  });
  // The worker runs while the server listens (so the sandbox can call back); `inject`-only tests drive it.
  app.addHook('onListen', async () => jobs.start());
  app.addHook('preClose', async () => jobs.stop());

  registerRoutes(
    app,
    {
      ...healthHandlers(database.db),
      ...otpHandlers(otp),
      ...authHandlers(auth),
      ...usersHandlers(users),
      ...walletHandlers(wallet),
      ...tasksHandlers(tasks),
      ...accountHandlers(account),
      ...surveyHandlers(survey),
      ...introHandlers(intro),
      ...referralsHandlers(referrals),
      ...revenueHandlers(revenue),
      ...linkedAccountsHandlers(linked, linkedAdmin),
      ...noticesHandlers(notices, noticesAdmin),
      ...uploadsHandlers(uploads),
      ...adminHandlers({ users: adminUsers, dashboard, exports }),
      ...auditHandlers(audit),
      ...payoutAccountsHandlers(payoutAccounts),
      ...withdrawalsHandlers(withdrawals),
      ...payoutsHandlers(payouts),
    },
    auth.resolveSession,
  );
  serveUploads(app, fileStore);
  serveMetrics(app, metrics, config.METRICS_TOKEN);

  const spaFallback = await serveApps(
    app,
    deps.webRoots ?? { web: resolve(repoRoot, 'web/dist'), admin: resolve(repoRoot, 'admin/dist') },
  );
  app.setNotFoundHandler((request, reply) => {
    if (spaFallback(request.url, request.method, reply)) return reply;
    return sendError(request, reply, 'route_not_found', 404, {});
  });

  // A plain object, not the instance: Fastify instances are thenables, so `await` would unwrap them.
  return {
    app,
    metrics,
    services: {
      otp,
      auth,
      users,
      wallet,
      tasks,
      survey,
      intro,
      referrals,
      revenue,
      linked,
      linkedAdmin,
      notices,
      noticesAdmin,
      uploads,
      adminUsers,
      dashboard,
      exports,
      audit,
      payoutAccounts,
      withdrawals,
      payouts,
      jobs,
      payoutSecret: secret,
    },
  };
}

/**
 * The per-address rate counters: in Redis when REDIS_URL is set (shared by every instance), else in
 * this process. Waits briefly for Redis at start; if it is not there yet, counting falls back to memory
 * until it is, and the client keeps reconnecting.
 */
async function rateCounters(
  app: FastifyInstance,
  config: Config,
  nowMs: () => number,
  onFallback: () => void,
): Promise<RateCounters> {
  const memory = new WindowCounter(nowMs);
  if (!config.REDIS_URL) return memory;
  const redis = new Redis(config.REDIS_URL, {
    // Fail a command at once while disconnected (and fall back) instead of queueing it behind a login.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1_000,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  let lastWarning = 0;
  redis.on('error', (error) => {
    // ioredis reports every failed reconnect; one line a minute is enough.
    if (Date.now() - lastWarning > 60_000) {
      lastWarning = Date.now();
      app.log.warn({ err: error }, 'redis unavailable: rate limits counted per instance');
    }
  });
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  await Promise.race([once(redis, 'ready'), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
  return redisCounters(redis, {
    prefix: config.REDIS_KEY_PREFIX,
    fallback: memory,
    onError: onFallback,
  });
}

export type Built = Awaited<ReturnType<typeof buildApp>>;
