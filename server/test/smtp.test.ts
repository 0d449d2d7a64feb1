import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otpDeliveries } from '../src/db/schema';
import { codeText } from '../src/features/otp/otp.senders';
import { createTestContext, type TestContext } from './helpers';

const API = '/go_user/api/v1';
const TIMEOUT_MS = 1500;

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on a free local port (the `smtp-server` package): no TLS, no auth, keeps what it gets. */
async function startSmtp(options: { stall?: boolean } = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // Closing does not wait for a stalled client (the default waits 30 s).
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        // A stalled server takes the message and never says whether it accepted it.
        if (!options.stall) callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The text body of a received message, its quoted-printable or base64 transfer encoding undone. */
function bodyOf(raw: string) {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/content-transfer-encoding:\s*base64/i.test(head))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

describe('e-mail codes through a real SMTP server', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let ctx: TestContext;
  beforeAll(async () => {
    smtp = await startSmtp();
    ctx = await createTestContext({
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Kamai <no-reply@kamai.in>',
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it('sends the code from SMTP_FROM to the address, in the language of the request', async () => {
    const target = `asha.${Date.now()}@kamai-users.in`;
    const res = await ctx.post(`${API}/common/otp/send`, { target, type: 1 }, { lang: 'hi-IN' });
    expect(res.body).toMatchObject({ code: 200 });
    const mail = smtp.received.find((m) => m.to.includes(target));
    if (!mail) throw new Error('no mail received');
    expect(mail.from).toBe('no-reply@kamai.in');
    expect(mail.to).toEqual([target]);
    expect(mail.raw).toMatch(/^From: Kamai <no-reply@kamai\.in>/m);
    expect(mail.raw).toMatch(new RegExp(`^To: ${target.replace(/\./g, '\\.')}`, 'm'));
    expect(mail.raw).toMatch(/^Content-Language: hi-IN/m);
    expect(mail.raw).toMatch(/^Subject: =\?UTF-8\?/m);
    const body = bodyOf(mail.raw);
    const code = /\d{6}/.exec(body)?.[0];
    if (!code) throw new Error(`no code in ${body}`);
    expect(body.trim()).toBe(codeText('hi_IN', code));
    expect(body).toMatch(/[\u0900-\u097F]/);
    const [row] = await ctx.db.select().from(otpDeliveries).where(eq(otpDeliveries.target, target));
    expect(row).toMatchObject({ provider: 'smtp', status: 'sent' });
  });
});

describe('a stalled SMTP server', () => {
  it('is given up within SMTP_TIMEOUT_MS: the request is answered and the attempt recorded as failed', {
    timeout: 30_000,
  }, async () => {
    const smtp = await startSmtp({ stall: true });
    const ctx = await createTestContext({
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Kamai <no-reply@kamai.in>',
      SMTP_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    try {
      const target = `stalled.${Date.now()}@kamai-users.in`;
      const res = await ctx.post(`${API}/common/otp/send`, { target, type: 1 });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.body).toHaveProperty('key');
      expect(smtp.received.map((m) => m.to)).toContainEqual([target]);
      const [row] = await ctx.db.select().from(otpDeliveries).where(eq(otpDeliveries.target, target));
      expect(row).toMatchObject({ provider: 'smtp', status: 'failed' });
      expect(row?.error).toContain(`no answer within ${TIMEOUT_MS} ms`);
    } finally {
      await ctx.close();
      await smtp.close();
    }
  });
});
