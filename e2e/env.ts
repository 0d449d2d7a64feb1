/** What the global set-up hands the tests: the server's address, its log, and its first admin. */
function need(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the e2e tests with \`npm run test:e2e\``);
  return value;
}

export const baseUrl = (): string => need('E2E_BASE_URL');
export const logFile = (): string => need('E2E_LOG_FILE');
export const firstAdmin = (): { username: string; password: string; inviteCode: string } =>
  JSON.parse(need('E2E_ADMIN')) as { username: string; password: string; inviteCode: string };
