import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { openDatabase } from './db/client';
import { createUsersService } from './features/users';
import { ConfigError, loadConfig } from './platform/config';

/** Made by `npm run build` (scripts/build.ts); from src/ and from the bundle in dist/ alike. */
const PGLITE_TEMPLATE = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/pglite-template');

async function main() {
  const config = loadConfig();
  const startedAt = performance.now();
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    template: PGLITE_TEMPLATE,
    poolSize: config.DATABASE_POOL_SIZE,
    onConnectionError: (error) =>
      process.stderr.write(`${JSON.stringify({ msg: 'database connection lost', error: error.message })}\n`),
  });
  const { app } = await buildApp({ config, database });

  const admin = await createUsersService({ db: database.db, now: () => new Date() }).bootstrapAdmin({
    username: config.ADMIN_USERNAME,
    password: config.ADMIN_PASSWORD,
  });
  if (admin?.generated) {
    // Printed once, on the start that created it: the operator's only way to learn it.
    process.stdout.write(
      `\nKamai: created the first admin account (shown only this once)\n  username:    ${admin.username}\n  password:    ${admin.password}\n  invite code: ${admin.inviteCode}\n\n`,
    );
  } else if (admin) {
    app.log.info({ username: admin.username, inviteCode: admin.inviteCode }, 'admin account created');
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
