import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    logFile: string;
    admin: { username: string; password: string; inviteCode: string };
  }
}

export const CHROMIUM = '/usr/bin/chromium';

/** One real server for the run, on a fresh PGlite directory; its first admin is read from its output. */
export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`);
  }
  const server = await startServer();
  const output = server.lines.join('\n');
  const field = (name: string) => new RegExp(`${name}:\\s+(\\S+)`).exec(output)?.[1];
  const admin = { username: field('username'), password: field('password'), inviteCode: field('invite code') };
  if (!admin.username || !admin.password || !admin.inviteCode) {
    throw new Error(`the server did not print its first admin:\n${output}`);
  }
  project.provide('baseUrl', server.url);
  project.provide('logFile', server.logFile);
  project.provide('admin', admin as { username: string; password: string; inviteCode: string });
  return () => server.stop();
}
