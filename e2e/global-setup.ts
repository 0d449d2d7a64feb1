import { existsSync } from 'node:fs';
import { CHROMIUM } from './browser';
import { startServer } from './server';

/**
 * One real server for the run, on a fresh PGlite directory; its first admin is read from its output.
 * The test workers start after this and inherit the variables set here (see `env.ts`).
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`);
  }
  const server = await startServer();
  const output = server.lines.join('\n');
  const field = (name: string) => new RegExp(`${name}:\\s+(\\S+)`).exec(output)?.[1];
  const admin = { username: field('username'), password: field('password'), inviteCode: field('invite code') };
  if (!admin.username || !admin.password || !admin.inviteCode) {
    await server.stop();
    throw new Error(`the server did not print its first admin:\n${output}`);
  }
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_LOG_FILE = server.logFile;
  process.env.E2E_ADMIN = JSON.stringify(admin);
  return () => server.stop();
}
