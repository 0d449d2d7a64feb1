/** The few API calls the benchmarks need to set up users, through the real HTTP API. */

export const API = '/go_user/api/v1';

interface Envelope<T> {
  code: number;
  key: string;
  data: T;
}

export async function call<T>(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as Envelope<T>;
  if (envelope.code !== 200) throw new Error(`${method} ${path} answered ${envelope.code} ${envelope.key}`);
  return envelope.data;
}

/** The bootstrap admin the benchmark servers are started with (ADMIN_USERNAME/ADMIN_PASSWORD). */
export const BENCH_ADMIN = { username: 'bench-admin@kamai.local', password: 'bench-admin-1' };
/**
 * A second admin the benchmark servers are started with (STAFF_ACCOUNTS): a settings change that
 * weakens a control (the benchmarks' lower withdrawal minimum) is applied by another admin
 * (docs/decisions/dual-control.md).
 */
export const BENCH_SECOND_ADMIN = { username: 'bench-admin-2@kamai.local', password: 'bench-admin-2' };
export const BENCH_ADMIN_ENV = {
  ADMIN_USERNAME: BENCH_ADMIN.username,
  ADMIN_PASSWORD: BENCH_ADMIN.password,
  STAFF_ACCOUNTS: JSON.stringify([{ ...BENCH_SECOND_ADMIN, role: 'admin' }]),
};
/** The benchmark servers' staff, both admins (capacity.ts's name for BENCH_ADMIN_ENV). */
export const DUAL_ADMIN_ENV = BENCH_ADMIN_ENV;
/** For benchmarks that register hundreds of users from one address (the default is 200 codes an hour). */
export const MANY_USERS_ENV = {
  ...BENCH_ADMIN_ENV,
  OTP_SENDS_PER_IP_PER_HOUR: '1000000',
  REGISTRATIONS_PER_IP_PER_HOUR: '1000000',
};

/** A dual-controlled change made whole: posted by `token`'s admin, applied by the second admin when proposed. */
export async function controlled(base: string, path: string, body: unknown, token: string): Promise<void> {
  const data = await call<{ change?: { id: number; state: string } | null }>(base, 'POST', path, body, token);
  if (data.change?.state !== 'pending') return;
  const second = await login(base, BENCH_SECOND_ADMIN.username, BENCH_SECOND_ADMIN.password);
  await call(base, 'POST', `${API}/admin/control/apply`, { id: data.change.id }, second);
}

export async function login(base: string, username: string, password: string): Promise<string> {
  const data = await call<{ token: string }>(base, 'POST', `${API}/common/user/login`, { username, password });
  return data.token;
}

let phoneSeq = 0;
function nextPhone(): string {
  phoneSeq += 1;
  return `9${String(process.pid % 10_000).padStart(4, '0')}${String(phoneSeq).padStart(5, '0')}`;
}

export interface BenchUser {
  username: string;
  password: string;
  token: string;
}

/**
 * Registers `count` users the way a person does: a code to the phone (read back from the sandbox
 * outbox by the admin), then register with the admin's invite code, or `inviteCode` when given.
 */
export async function registerUsers(
  base: string,
  count: number,
  parallel = 1,
  inviteCode?: string,
): Promise<BenchUser[]> {
  const adminToken = await login(base, BENCH_ADMIN.username, BENCH_ADMIN.password);
  const admin = inviteCode
    ? { inviteCode }
    : await call<{ inviteCode: string }>(base, 'GET', `${API}/user/user/detail`, undefined, adminToken);
  const users: BenchUser[] = [];
  const one = async () => {
    const phone = nextPhone();
    const username = `91${phone}`;
    await call(base, 'POST', `${API}/common/otp/send`, { target: phone, type: 1 });
    const outbox = await call<{ items: { target: string; code: string }[] }>(
      base,
      'GET',
      `${API}/admin/otp/outbox?limit=${Math.max(20, 4 * parallel)}`,
      undefined,
      adminToken,
    );
    const code = outbox.items.find((item) => item.target === username)?.code;
    if (!code) throw new Error(`no sandbox code for ${username}`);
    const password = 'bench-pass-1';
    const { token } = await call<{ token: string }>(base, 'POST', `${API}/common/user/register`, {
      username: phone,
      password,
      password2: password,
      verifyCode: code,
      inviteCode: inviteCode ?? admin.inviteCode,
    });
    users.push({ username, password, token });
  };
  for (let done = 0; done < count; done += parallel) {
    await Promise.all(Array.from({ length: Math.min(parallel, count - done) }, one));
  }
  return users;
}
