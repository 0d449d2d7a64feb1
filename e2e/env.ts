/** What the global set-up hands the tests: the server's address, its log, and its first admin. */
function need(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the e2e tests with \`npm run test:e2e\``);
  return value;
}

/**
 * A second admin the e2e server is started with (STAFF_ACCOUNTS): a change that weakens a control is
 * proposed by one admin and applied by another (docs/decisions/dual-control.md).
 */
export const FIRST_ADMIN = { username: 'admin@kamai.local', password: 'First4dmin-e2e' } as const;
export const SECOND_ADMIN = {
  username: 'second.admin@kamai.local',
  password: 'Second4dmin-e2e',
  role: 'admin',
} as const;

export const baseUrl = (): string => need('E2E_BASE_URL');
export const logFile = (): string => need('E2E_LOG_FILE');
export const firstAdmin = (): { username: string; password: string; inviteCode: string } =>
  JSON.parse(need('E2E_ADMIN')) as { username: string; password: string; inviteCode: string };
