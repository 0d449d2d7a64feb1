import { type AdminWithdrawalItem, ifscParts } from '@kamai/contract';
import { Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { LightText } from '../../../components/light-text';
import { dateTime, phoneNumber, rupees } from '../../../lib/format';
import { AmountsLine, ApproveButton } from './approve-button';
import { ApprovalsTag, reasonLabel, scoreColor } from './risk-cell';
import { StateTag } from './state-tag';

/** Where the money goes: the holder, then the number with its IFSC and bank, or the UPI id. */
export function AccountLine({ item }: { item: AdminWithdrawalItem }) {
  const { account } = item;
  if (account.accountType === 'upi') {
    return (
      <span className="queue-card-line">
        {account.accountName} · UPI <span className="queue-card-number">{account.accountNo}</span>
      </span>
    );
  }
  const bank = ifscParts(account.ifsc)?.bank;
  return (
    <span className="queue-card-line">
      {account.accountName} · <span className="queue-card-number">{account.accountNo}</span> ·{' '}
      <span className="queue-card-number">{account.ifsc}</span>
      {bank ? ` (${bank})` : ''}
    </span>
  );
}

/** The bank's name for the number paid, on one line, red when it matches the typed name poorly. */
function PayeeLine({ item }: { item: AdminWithdrawalItem }) {
  const { t } = useTranslation();
  const check = item.payeeCheck;
  if (!check) return null;
  if (check.state === 'verified') {
    return (
      <LightText type={check.nameMatchLow ? 'danger' : 'secondary'} className="queue-card-line">
        {t('withdrawals.payee.bank', { name: check.registeredName ?? '', match: check.nameMatch ?? 0 })}
      </LightText>
    );
  }
  return (
    <LightText type={check.state === 'verifying' ? 'secondary' : 'danger'} className="queue-card-line">
      {t(check.state === 'verifying' ? 'withdrawals.payee.verifying' : 'withdrawals.payee.unverified')}
    </LightText>
  );
}

/**
 * A withdrawal on a phone: what the reviewer decides on (gross, fee and net; the user; the account with
 * its IFSC or UPI id; the bank's name; the risk and its reasons) in a short card, Approve and Reject at
 * its foot, each a 44 px target. A page of these is the phone's first screen: its texts are light
 * (components/light-text.tsx).
 */
export function WithdrawalCard({
  item,
  onApprove,
  onReject,
}: {
  item: AdminWithdrawalItem;
  onApprove: () => Promise<unknown>;
  onReject: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="queue-card" data-testid="withdrawal-card">
      <div className="queue-card-head">
        <LightText strong className="queue-card-amount">
          {rupees(item.amount)}
        </LightText>
        <span className="queue-card-tags">
          <StateTag state={item.state} />
          <ApprovalsTag item={item} />
          <Tag color={scoreColor(item.risk.score)} aria-label={`${t('withdrawals.risk')} ${item.risk.score}`}>
            {t('withdrawals.risk')} {item.risk.score}
          </Tag>
        </span>
      </div>
      <AmountsLine item={item} />
      <span className="queue-card-line">
        {phoneNumber(item.username)}{' '}
        <LightText type="secondary">
          #{item.userId} · {t('withdrawals.requestNo', { id: item.id })} · {dateTime(item.createdAt)}
        </LightText>
      </span>
      <AccountLine item={item} />
      <PayeeLine item={item} />
      {item.risk.reasons.length > 0 && (
        <ul className="queue-card-reasons">
          {item.risk.reasons.map((key) => (
            <li key={key}>{reasonLabel(key)}</li>
          ))}
        </ul>
      )}
      {item.state === 'pending' && (
        // A tap on an action is not a tap on the card (which shows the user's history).
        // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: only stops the card's click
        <div className="queue-card-actions" onClick={(event) => event.stopPropagation()}>
          <ApproveButton item={item} onApprove={onApprove} large />
          <Button danger size="large" block onClick={onReject}>
            {t('withdrawals.reject')}
          </Button>
        </div>
      )}
    </div>
  );
}
