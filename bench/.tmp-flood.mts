import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
const dir = mkdtempSync(join(tmpdir(), 'flood-'));
const port = 18231;
const server = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/prof', 'server/dist/main.js'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, TRUST_PROXY: 'true', INVITE_CODE_REQUIRED: 'false', LOG_LEVEL: 'warn', NODE_ENV: 'production' },
  stdio: 'inherit',
});
for (let i = 0; i < 100; i++) { try { const r = await fetch(`http://127.0.0.1:${port}/obj/test/t1`); if (r.ok) break; } catch {} await new Promise((r) => setTimeout(r, 300)); }
let n = 0;
const r = await autocannon({
  url: `http://127.0.0.1:${port}`, connections: 150, duration: 12,
  requests: [{ method: 'POST', path: '/go_user/api/v1/common/user/register', setupRequest: (req: any) => {
    n++;
    return { ...req, headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
      body: JSON.stringify({ username: `6${String(n).padStart(9, '0')}`, password: 'Flood-pass-1', password2: 'Flood-pass-1', verifyCode: '123456' }) };
  } }],
});
console.log('rps', r.requests.average, 'statuses', JSON.stringify(r.statusCodeStats));
server.kill('SIGINT');
await new Promise((r) => server.on('exit', r));
