import { existsSync } from 'node:fs';
import { CHROMIUM } from './browser';
import { firstAdminOf, STAFF_ENV, startServer } from './server';

/**
 * One real server for the run, on a fresh PGlite directory, with two admins (STAFF_ENV); the first
 * admin's invite code is read from its log.
 * The test workers start after this and inherit the variables set here (see `env.ts`).
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`);
  }
  // Two admins named by the deployment: dual-controlled changes are proposed by one, applied by the other.
  const server = await startServer(STAFF_ENV);
  let admin: ReturnType<typeof firstAdminOf>;
  try {
    admin = firstAdminOf(server);
  } catch (error) {
    await server.stop();
    throw error;
  }
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_LOG_FILE = server.logFile;
  process.env.E2E_ADMIN = JSON.stringify(admin);
  return () => server.stop();
}
