import { readFileSync } from 'node:fs';
import { RAZORPAYX_PAYOUT_EVENTS, RAZORPAYX_VALIDATION_EVENTS, SMS_MESSAGE_VARIABLES } from '@kamai/contract';
import { describe, expect, it } from 'vitest';
import { codeSmsText, smsCodeHost } from '../src/features/otp/otp.senders';
import { dltVariables } from '../src/features/otp/sms.providers';
import { ConfigError, loadConfig } from '../src/platform/config';

/**
 * The operator's guide against the code: what it tells operators to register with RazorpayX, MSG91 and
 * Twilio is what the code handles and sends.
 */
const guide = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');

function between(start: string, end: string) {
  const from = guide.indexOf(start);
  const to = guide.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`docs/operations.md has no section from "${start}" to "${end}"`);
  return guide.slice(from, to);
}

describe('docs/operations.md', () => {
  it('lists exactly the RazorpayX events the webhook handler acts on, in the webhook step', () => {
    const step = between('4. **Webhook.**', '5. **Switch.**');
    const rows = step.split('\n').filter((line) => /^\s*\| `/.test(line));
    const named = rows.flatMap((row) =>
      [...(row.split('|')[1] ?? '').matchAll(/`([a-z_]+(?:\.[a-z_]+)+)`/g)].map((m) => m[1]),
    );
    expect(new Set(named)).toEqual(new Set([...RAZORPAYX_PAYOUT_EVENTS, ...RAZORPAYX_VALIDATION_EVENTS]));
    expect(named).toHaveLength(new Set(named).size);
    expect(step).toContain('There is no `payout.cancelled` event');
  });

  it('registers the operator-SMS template with the variables the MSG91 adapter sends', () => {
    const sent = Object.keys(dltVariables('x'));
    expect(sent).toHaveLength(SMS_MESSAGE_VARIABLES);
    expect(guide).toContain(`\`${sent.map((name) => `##${name}##`).join('')}\``);
    expect(guide).toContain(`\`{#var#}${'{#var#}'.repeat(SMS_MESSAGE_VARIABLES - 1)}\``);
    expect(guide).not.toContain('##message##');
  });

  it('registers the OTP template as the text Twilio sends: the message, then the origin-bound line', () => {
    const step = between('3. **One OTP template per language**', '4. Put the template ids');
    const block = /```text\n([\s\S]*?)\n\s*```/.exec(step)?.[1];
    const template = block?.replace(/^ {3}/gm, '');
    expect(template).toBe(codeSmsText('en_US', '##OTP##', smsCodeHost('https://kamai.in')));
    expect(template?.split('\n').at(-1)).toBe('@kamai.in ###OTP##');
    expect(step).toContain('`PUBLIC_URL=https://kamai.in`');
  });

  it('names the OTP webhook for code reports beside the SMS webhook', () => {
    const reports = between('### Delivery reports', '### Watching delivery').replace(/\s+/g, ' ');
    expect(reports).toContain('OTP → Webhook');
    expect(reports).toContain('**On Report Received**');
    expect(reports).toContain('SMS → Webhook');
  });

  it('asks Twilio for the account SID and its auth token, as the configuration does', () => {
    expect(guide).not.toMatch(/API key's secret with its SID/);
    const env = { SMS_PROVIDER: 'twilio', TWILIO_AUTH_TOKEN: 'a'.repeat(32), TWILIO_FROM: '+15005550006' };
    expect(() => loadConfig({ ...env, TWILIO_ACCOUNT_SID: `SK${'0'.repeat(32)}` })).toThrow(ConfigError);
    expect(loadConfig({ ...env, TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}` }).TWILIO_ACCOUNT_SID).toMatch(/^AC/);
  });
});
