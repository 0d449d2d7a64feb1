import { existsSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/db/client';
import { resetAdminFromHost } from '../src/features/admin';
import { absoluteDataDir, ConfigError, loadConfig } from '../src/platform/config';

/**
 * `npm run admin:reset -w server -- <username>`: a new password for the only active admin, printed
 * once, from a shell on the server's host (docs/decisions/host-password-reset.md). Reads the same
 * environment as the server (DATABASE_URL or DATA_DIR). On PGlite the server must be stopped first:
 * one process opens its files.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

async function run(): Promise<number> {
  const username = process.argv[2];
  if (!username || process.argv.length > 3) {
    process.stderr.write('usage: npm run admin:reset -w server -- <username>\n');
    return 64;
  }
  const config = loadConfig();
  const dataDir = absoluteDataDir(config, root);
  if (!config.DATABASE_URL && !existsSync(join(dataDir, 'pglite'))) {
    process.stderr.write(`no database in ${dataDir} (DATA_DIR); nothing to reset\n`);
    return 1;
  }
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir });
  try {
    const result = await resetAdminFromHost(database.db, {
      username,
      operator: { host: hostname(), osUser: userInfo().username },
    });
    if (!result.ok) {
      process.stderr.write(`refused: ${result.reason}\n`);
      return 1;
    }
    process.stdout.write(
      `Kamai: new password for ${result.username} (shown only this once; ${result.sessionsEnded} session(s) ended, audited as user.resetpass by host)\n  password: ${result.password}\n  Change it in the console after logging in.\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

run().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
    process.exit(error instanceof ConfigError ? 78 : 1);
  },
);
