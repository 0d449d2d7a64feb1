import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIRST_ADMIN, SECOND_ADMIN } from './env';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningServer {
  url: string;
  /** Everything the server printed, one line each (the sandbox OTP lines among them). */
  logFile: string;
  lines: string[];
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the real server (`server/src/main.ts`) on a fresh PGlite data directory and a free port. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const dataDir = mkdtempSync(join(tmpdir(), 'kamai-e2e-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: {
      // The sandbox gateway reports a payout after this long (3 s in production-like runs).
      SANDBOX_PAYOUT_DELAY_MS: '300',
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const logFile = join(dataDir, 'server.log');
  // Whole lines only, each stream on its own: a chunk may end inside a line (a JSON log line read
  // half-written made a test fail), and stdout's and stderr's halves must not interleave in the file.
  const collector = () => {
    let rest = '';
    return (chunk: string) => {
      const text = rest + chunk;
      const end = text.lastIndexOf('\n');
      rest = text.slice(end + 1);
      if (end < 0) return;
      const whole = text.slice(0, end + 1);
      appendFileSync(logFile, whole);
      lines.push(...whole.split('\n').filter(Boolean));
    };
  };
  child.stdout?.setEncoding('utf8').on('data', collector());
  child.stderr?.setEncoding('utf8').on('data', collector());
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${lines.join('\n')}`);
    try {
      const res = await fetch(`${url}/obj/test/t2`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    logFile,
    lines,
    child,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The staff of the suite's server, named by the deployment (docs/decisions/first-admin.md): two admins,
 * so a change under dual control is proposed by one and applied by the other.
 */
export const STAFF_ENV = {
  ADMIN_USERNAME: FIRST_ADMIN.username,
  ADMIN_PASSWORD: FIRST_ADMIN.password,
  STAFF_ACCOUNTS: JSON.stringify([SECOND_ADMIN]),
};

/** The first admin's invite code, from the server's "staff account created" log line. */
export function firstAdminOf(server: RunningServer): { username: string; password: string; inviteCode: string } {
  for (const line of server.lines) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { msg?: string; username?: string; inviteCode?: string };
    if (entry.msg === 'staff account created' && entry.username === FIRST_ADMIN.username && entry.inviteCode)
      return { ...FIRST_ADMIN, inviteCode: entry.inviteCode };
  }
  throw new Error(`the server did not log its first admin:\n${server.lines.join('\n')}`);
}
