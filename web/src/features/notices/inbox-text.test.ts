import type { InboxItem } from '@kamai/contract';
import { translate } from '@kamai/contract/constants';
import { describe, expect, it } from 'vitest';
import { inboxText } from './inbox-text';

const base: InboxItem = {
  kind: 'notification',
  id: 7,
  title: 'stored title',
  body: 'stored body',
  imageUrl: null,
  pinned: false,
  read: false,
  createdAt: '2026-01-05T10:00:00.000Z',
  notification: { type: 'withdrawal_rejected', params: { amount: '100000.00', reason: 'Name does not match' } },
};

describe('inbox texts', () => {
  it("writes a notification from its kind's catalogue text, amount grouped in the reader's locale", () => {
    const en = inboxText(base, (key, vars) => translate('en_US', key, vars), 'en_US');
    expect(en).toEqual({
      title: 'Withdrawal rejected',
      body: 'Your withdrawal of ₹1,00,000.00 was rejected: Name does not match. The amount is back in your wallet.',
    });
    const hi = inboxText(base, (key, vars) => translate('hi_IN', key, vars), 'hi_IN');
    expect(hi.title).toBe(translate('hi_IN', 'notification_withdrawal_rejected_title'));
    expect(hi.body).toContain('1,00,000.00');
    expect(hi.body).toContain('Name does not match');
  });

  it('leaves no placeholder when a param is missing, and shows notices and unknown kinds as stored', () => {
    const noReason = { ...base, notification: { type: 'withdrawal_failed', params: { amount: '5.00', reason: null } } };
    expect(inboxText(noReason, (key, vars) => translate('en_US', key, vars), 'en_US').body).not.toContain('{{');
    const notice: InboxItem = { ...base, kind: 'notice', notification: null };
    expect(inboxText(notice, () => 'x', 'en_US')).toEqual({ title: 'stored title', body: 'stored body' });
    const unknown = { ...base, notification: { type: 'something_new', params: {} } };
    expect(inboxText(unknown, () => 'x', 'en_US')).toEqual({ title: 'stored title', body: 'stored body' });
  });
});
