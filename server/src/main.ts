import cluster from 'node:cluster';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { openDatabase } from './db/client';
import { rehashNumbers } from './features/payout-accounts';
import { createIdentityLedger, createUsersService, staffSeeds } from './features/users';
import { absoluteDataDir, type Config, ConfigError, loadConfig } from './platform/config';
import { staffPasswordProblems } from './platform/production-check';

/** The repository root, from src/ and from the bundle in dist/ alike. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Made by `npm run build` (scripts/build.ts). */
const PGLITE_TEMPLATE = resolve(ROOT, 'server/dist/pglite-template');

/** The environment's configuration, DATA_DIR made absolute (`absoluteDataDir`). */
function configuration(): Config {
  const config = loadConfig();
  return { ...config, DATA_DIR: absoluteDataDir(config, ROOT) };
}

/** `withReplicas: false` where nothing serves reads (the cluster's primary process). */
function open(config: Config, withReplicas = true) {
  return openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    template: PGLITE_TEMPLATE,
    poolSize: config.DATABASE_POOL_SIZE,
    replicaUrls: withReplicas ? config.DATABASE_REPLICA_URLS : undefined,
    replicaMaxLagMs: config.DATABASE_REPLICA_MAX_LAG_MS,
    onConnectionError: (error) =>
      process.stderr.write(`${JSON.stringify({ msg: 'database connection lost', error: error.message })}\n`),
    waitMs: config.DATABASE_WAIT_SECONDS * 1000,
    onWait: ({ attempt, error, retryInMs }) =>
      process.stderr.write(
        `${JSON.stringify({ msg: 'waiting for the database', attempt, error: error.message, retryInMs })}\n`,
      ),
  });
}

type Log = (level: 'info' | 'warn', fields: object, msg: string) => void;

/**
 * The deployment's staff, once per start (by the primary when several processes serve): ADMIN_USERNAME
 * and STAFF_ACCOUNTS created or promoted, or the first admin generated (docs/decisions/first-admin.md).
 */
async function bootstrapStaff(config: Config, database: Awaited<ReturnType<typeof open>>, log: Log) {
  // Production refused these already (production-check.ts); elsewhere they start, with a warning.
  for (const problem of staffPasswordProblems(config))
    log(
      'warn',
      { variable: problem.variable, problem: problem.message },
      'weak staff password (production refuses it)',
    );
  const { staff, generated } = await createUsersService({ db: database.db, now: () => new Date() }).bootstrapStaff(
    staffSeeds(config),
  );
  for (const { result, inviteCode, ...account } of staff) {
    if (result === 'created') log('info', { ...account, inviteCode }, 'staff account created');
    else if (result === 'created_elsewhere') log('info', account, 'staff account created by another instance');
    else
      log(
        'warn',
        { ...account, promoted: result === 'promoted', hint: NOT_APPLIED_HINT },
        `${account.variable}: the password of ${account.username} was NOT applied: the account already exists and keeps its own password${result === 'promoted' ? ` (promoted from ${account.previousRole} to ${account.role})` : ''}`,
      );
  }
  if (generated) {
    // Printed once, on the start that created it: the operator's only way to learn it.
    process.stdout.write(
      `\nKamai: created the first admin account (shown only this once)\n  username:    ${generated.username}\n  password:    ${generated.password}\n  invite code: ${generated.inviteCode}\n  (users may register with it; staff earn nothing, so they get no inviter)\n  To name staff yourself set ADMIN_USERNAME/ADMIN_PASSWORD or STAFF_ACCOUNTS; a password set there\n  for an account that already exists is not applied (change it in the console).\n\n`,
    );
  }
}

const NOT_APPLIED_HINT =
  'change it in the console or with a one-time code; the password may be removed from the deployment now';

/**
 * While `IDENTITY_HASH_SECRET_PREVIOUS` is set, every start moves the identity hashes the server can
 * recompute to the current key (docs/operations.md "Rotating the identity-hash key").
 */
async function rehashIdentities(
  config: Config,
  database: Awaited<ReturnType<typeof open>>,
  log: (fields: object, msg: string) => void,
) {
  if (config.IDENTITY_HASH_SECRET_PREVIOUS.length === 0) return;
  const ledger = createIdentityLedger(database.db, config.IDENTITY_HASH_SECRET, config.IDENTITY_HASH_SECRET_PREVIOUS);
  log({ moved: await ledger.rehash() }, 'identity hashes moved to the current key');
  log(
    { moved: await rehashNumbers(database.db, ledger.hashOf) },
    'payout-account number hashes moved to the current key',
  );
}

/**
 * WEB_CONCURRENCY > 1: this process migrates and makes the first admin, then forks that many
 * workers, which share the port (node:cluster hands connections out in turn) and each run the whole
 * app, job runner included (jobs are claimed with SKIP LOCKED and leases, so several runners are safe).
 * A worker that dies is replaced; SIGTERM is passed on and the primary exits when they have.
 */
async function primary(config: Config) {
  const database = await open(config, false);
  const shown = { info: ['info', 'debug', 'trace'], warn: ['warn', 'info', 'debug', 'trace'] };
  await bootstrapStaff(config, database, (level, fields, msg) => {
    if (shown[level].includes(config.LOG_LEVEL)) process.stdout.write(`${JSON.stringify({ level, ...fields, msg })}\n`);
  });
  await rehashIdentities(config, database, (fields, msg) => {
    if (shown.info.includes(config.LOG_LEVEL))
      process.stdout.write(`${JSON.stringify({ level: 'info', ...fields, msg })}\n`);
  });
  await database.close();
  let closing = false;
  const fork = () => cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (closing) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    process.stderr.write(
      `${JSON.stringify({ msg: 'worker exited, replacing it', pid: worker.process.pid, code, signal })}\n`,
    );
    setTimeout(fork, 1000);
  });
  const shutdown = () => {
    if (closing) return;
    closing = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    setTimeout(() => process.exit(1), 20_000).unref();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  for (let i = 0; i < config.WEB_CONCURRENCY; i += 1) fork();
}

async function main() {
  const config = configuration();
  if (config.WEB_CONCURRENCY > 1 && cluster.isPrimary) return primary(config);
  const startedAt = performance.now();
  const database = await open(config);
  const { app } = await buildApp({ config, database });
  if (!cluster.isWorker) {
    await bootstrapStaff(config, database, (level, fields, msg) => app.log[level](fields, msg));
    await rehashIdentities(config, database, (fields, msg) => app.log.info(fields, msg));
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => process.exit(1), 15_000).unref();
    try {
      await app.close();
      await database.close();
    } finally {
      clearTimeout(timer);
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  app.log.info(
    {
      database: database.kind,
      ...(database.kind === 'pglite' ? { dataDir: config.DATA_DIR } : {}),
      readyMs: Math.round(performance.now() - startedAt),
      // The bound port (PORT=0 picks a free one).
      port: typeof address === 'object' && address ? address.port : config.PORT,
    },
    'ready',
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  process.stderr.write(
    `Kamai failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
