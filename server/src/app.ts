import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Database } from './db/client';
import * as account from './features/account';
import * as admin from './features/admin';
import * as auth from './features/auth';
import * as complaints from './features/complaints';
import * as credits from './features/credits';
import * as fraud from './features/fraud';
import * as health from './features/health';
import * as intro from './features/intro';
import * as linkedAccounts from './features/linked-accounts';
import * as notices from './features/notices';
import * as otp from './features/otp';
import * as payoutAccounts from './features/payout-accounts';
import * as payouts from './features/payouts';
import * as push from './features/push';
import * as referrals from './features/referrals';
import * as survey from './features/survey';
import * as tasks from './features/tasks';
import * as uploads from './features/uploads';
import * as users from './features/users';
import * as wallet from './features/wallet';
import * as withdrawals from './features/withdrawals';
import { registerApiDocs } from './platform/api-docs';
import { registerAudit } from './platform/audit.routes';
import type { Config } from './platform/config';
import { expireDueChanges } from './platform/control-changes';
import { registerControl } from './platform/control-changes.routes';
import { sendError } from './platform/error-handler';
import { installHttpPolicy, serverOptions } from './platform/http-policy';
import { createMetrics, serveMetrics } from './platform/metrics';
import { setHashPriorities } from './platform/password';
import { memoryLimits, type RateLimits, redisLimits } from './platform/rate-limit';
import { connectRedis } from './platform/redis';
import { replicaMetrics } from './platform/replica-metrics';
import {
  memoryRecentWrites,
  primaryReads,
  type ReplicaReads,
  redisRecentWrites,
  replicaReads,
} from './platform/replica-reads';
import { checkEveryRoute, type FeatureDeps, setWriteRecorder } from './platform/routes';
import { responseSerializerCompiler } from './platform/serializer';
import { registerSettings } from './platform/settings.routes';
import { serveApps, type WebRoots } from './platform/web';
import { createWorker } from './worker';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface AppDeps {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Real SMS delivery; without it codes go to the sandbox outbox and log. */
  smsSender?: otp.OtpSender;
  /** The messaging provider of linked accounts; the sandbox when absent (docs/design.md "Scope"). */
  linkProvider?: linkedAccounts.LinkProvider;
  /** Where uploads are kept; a disk folder under `DATA_DIR/uploads` when absent. */
  fileStore?: uploads.FileStore;
  now?: () => Date;
  webRoots?: WebRoots;
  /** The dashboard's pending-withdrawal figure; without it the dashboard answers `pending: null`. */
  pendingWithdrawals?: admin.PendingWithdrawals;
  /** Replaces the "masterpay" sandbox (which pays after SANDBOX_PAYOUT_DELAY_MS) as the `sandbox` gateway. */
  payoutGateway?: payouts.PayoutGateway;
  /** Where pushes go; Web Push (VAPID) to each subscription's push service when absent. */
  pushSender?: push.PushSender;
  /** Check every response with zod too (serializer.ts); by default under NODE_ENV test or development. */
  checkResponses?: boolean;
}

/**
 * Builds the whole app without listening: `main.ts` starts it, tests call `inject`. The platform's
 * policy first, then each feature's `register(app, deps)`, then the apps' files and the 404.
 */
export async function buildApp(deps: AppDeps) {
  const { config, database } = deps;
  const db = database.db;
  const app = Fastify(serverOptions(config, deps.logger ?? { level: config.LOG_LEVEL }));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(
    responseSerializerCompiler({
      check: deps.checkResponses ?? ['test', 'development'].includes(process.env.NODE_ENV ?? ''),
    }),
  );
  // First: the shutdown refusal must start before the job runner's preClose hook stops work.
  const policy = installHttpPolicy(app, { slowMs: config.LOG_SLOW_MS, sampleRate: config.LOG_SAMPLE_RATE });
  await registerApiDocs(app);

  setHashPriorities({ login: config.HASH_NICE_LOGIN, signup: config.HASH_NICE_SIGNUP });
  const now = deps.now ?? (() => new Date());
  const replica = await readRouting(app, database, config);
  const feature: FeatureDeps = { db, replica: replica.reads, config, now, log: app.log };
  const pendingWithdrawals = deps.pendingWithdrawals ?? withdrawals.pendingFigure;
  // The business rules of money the ledger check runs beside its invariants, each from the feature that
  // owns its tables (docs/decisions/ledger-rules.md); composed here so the wallet imports none of them.
  const ledgerRules: wallet.LedgerRule[] = [
    account.creditAfterDeletionRule,
    payouts.recoveryRule,
    withdrawals.withdrawalPostingsRule,
    withdrawals.unclaimedRule,
    ...(['rebate_to_staff', 'rebate_without_source'] as const).map((rule) => ({
      rule,
      violations: async (db: Parameters<wallet.LedgerRule['violations']>[0]) =>
        (await referrals.rebateRuleViolations(db)).filter((found) => found.rule === rule),
    })),
  ];
  const metrics = createMetrics({
    // On a replica when one is caught up: the check reads every posting, the heaviest read there is.
    checkLedger: () => replica.reads.read(undefined, (db) => wallet.checkMoney(db, ledgerRules)),
    ledgerCheckSeconds: config.METRICS_LEDGER_CHECK_SECONDS,
    pendingWithdrawals: () => pendingWithdrawals(db),
    payoutFigures: () => payouts.payoutFigures(db),
    complaintFigures: () => complaints.complaintFigures(db, now()),
    pool: database.pool,
    now: () => now().getTime(),
  });
  policy.observeAnswers(metrics.observeAnswer);
  if (database.replicas) replica.onRead = replicaMetrics(metrics.registry, database.replicas);
  database.retries.onRetry = (info) => {
    metrics.onTransactionRetry(info);
    app.log.warn(info, 'transaction retried');
  };
  const rates = await rateLimits(app, config, metrics.onCounterFallback);
  let authService: auth.AuthService | undefined;
  const worker = await createWorker({
    ...feature,
    periodic: [
      { name: 'login-attempts.sweep', everyMs: 3_600_000, run: async () => authService?.sweepLoginAttempts() },
      // Rebates whose hold ended move to the wallet (or are reversed), docs/decisions/rebate-hold.md.
      {
        name: 'rebates.release',
        everyMs: 60_000,
        run: async () => void (await referrals.releaseDueRebates(db, now())),
      },
      // Proposed control changes nobody applied in time expire (docs/decisions/dual-control.md).
      { name: 'control-changes.expire', everyMs: 60_000, run: async () => void (await expireDueChanges(db, now())) },
    ],
    payoutGateway: deps.payoutGateway,
    onPayoutMismatch: (gateway) => metrics.onPayoutMismatch(gateway),
    pushSender: deps.pushSender,
    notifyUrl: () => payouts.callbackUrl(config, () => app.server.address()),
  });
  // The worker runs while the server listens (so the sandbox can call back); `inject`-only tests drive their own.
  app.addHook('onListen', async () => worker.jobs.start());
  app.addHook('preClose', async () => worker.jobs.stop());

  health.register(app, feature);
  const codes = otp.register(app, { ...feature, rates, smsSender: deps.smsSender, onDelivery: metrics.onDelivery });
  authService = auth.register(app, { ...feature, otp: codes, rates });
  users.register(app, feature);
  wallet.register(app, { ...feature, ledgerRules });
  // Proof screenshots are uploads: the tasks feature checks a proof names a stored one.
  const files = await uploads.register(app, { ...feature, store: deps.fileStore, rates });
  tasks.register(app, { ...feature, uploads: files });
  account.register(app, { ...feature, uploads: files, rates });
  survey.register(app, feature);
  intro.register(app, feature);
  const { rebateControl } = referrals.register(app, feature);
  credits.register(app, feature);
  const { rateControl } = linkedAccounts.register(app, { ...feature, provider: deps.linkProvider });
  notices.register(app, feature);
  const { roleControl, unfreezeControl } = admin.register(app, {
    ...feature,
    pendingWithdrawals,
    ledgerRules,
    complaintFigures: (db) => complaints.complaintFigures(db, now()),
  });
  complaints.register(app, feature);
  registerAudit(app, feature);
  const settingsControl = registerSettings(app, {
    ...feature,
    sections: {
      withdrawal: withdrawals.limitSettings,
      risk: fraud.riskSettings,
      accountValidation: payoutAccounts.accountValidationSettings,
    },
  });
  // Dual control of every change that weakens a control (docs/decisions/dual-control.md).
  registerControl(app, {
    ...feature,
    kinds: {
      settings: settingsControl,
      rebate: rebateControl,
      role: roleControl,
      unfreeze: unfreezeControl,
      linked_rate: rateControl,
    },
  });
  payoutAccounts.register(app, { ...feature, validations: worker.validations });
  withdrawals.register(app, { ...feature, payouts: worker.payouts, validations: worker.validations });
  payouts.register(app, { ...feature, payouts: worker.payouts });
  push.register(app, { push: worker.push });
  checkEveryRoute(app);
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
  return { app };
}

/**
 * Where the reads that may be stale go: without DATABASE_REPLICA_URLS, the primary. With replicas, the
 * recent writers are kept in Redis when REDIS_URL is set (a user's next request may reach another
 * instance), else in this process. `onRead` is set once the metrics exist.
 */
async function readRouting(app: FastifyInstance, database: Database, config: Config) {
  const routing: { reads: ReplicaReads; onRead?: Parameters<typeof replicaReads>[0]['onRead'] } = {
    reads: primaryReads(database.db),
  };
  const replicas = database.replicas;
  if (!replicas) return routing;
  const windowMs = replicas.staleBoundMs;
  const recent = config.REDIS_URL
    ? redisRecentWrites(
        await connectRedis(app, config.REDIS_URL, 'stale reads of recent writers sent to the primary'),
        config.REDIS_KEY_PREFIX,
        windowMs,
      )
    : memoryRecentWrites(windowMs);
  routing.reads = replicaReads({
    primary: database.db,
    replicas,
    recent,
    onRead: (route) => routing.onRead?.(route),
    onReplicaError: (name, error) =>
      app.log.warn({ err: error, replica: name }, 'replica read failed; read again on the primary'),
  });
  setWriteRecorder(app, routing.reads.wrote);
  return routing;
}

/**
 * The per-address rate limits: in Redis when REDIS_URL is set (shared by every instance), else in
 * this process. If Redis is not there yet, counting falls back to memory until it is.
 */
async function rateLimits(app: FastifyInstance, config: Config, onFallback: () => void): Promise<RateLimits> {
  if (!config.REDIS_URL) return memoryLimits();
  const redis = await connectRedis(app, config.REDIS_URL, 'rate limits counted per instance');
  return redisLimits(redis, { prefix: config.REDIS_KEY_PREFIX, onFallback });
}

export type Built = Awaited<ReturnType<typeof buildApp>>;
