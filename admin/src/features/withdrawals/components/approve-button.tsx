import { type AdminWithdrawalItem, parseRupees } from '@kamai/contract';
import { Button, Popconfirm, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LightText } from '../../../components/light-text';
import { phoneNumber, rupees } from '../../../lib/format';
import { usePauseWhile } from '../../../lib/live';
import { useMe } from '../../../lib/roles';

/**
 * Why the signed-in operator may not approve this request, or null: nobody approves their own
 * withdrawal, and the first of two approvals cannot be given again by the same person (the server
 * refuses both; here the button says so before anyone presses it).
 */
export function approveBlock(item: AdminWithdrawalItem, meId: number): 'ownRequest' | 'gaveFirst' | null {
  if (item.userId === meId) return 'ownRequest';
  if (item.approvals.required >= 2 && item.approvals.first?.reviewerId === meId) return 'gaveFirst';
  return null;
}

/** Gross, fee and what reaches the bank, on one line. */
export function AmountsLine({ item }: { item: AdminWithdrawalItem }) {
  const { t } = useTranslation();
  return (
    <LightText type="secondary" className="cell-wrap">
      {t('withdrawals.feeNet', { fee: rupees(item.fee), net: rupees(item.payout) })}
    </LightText>
  );
}

/**
 * Approve, with a confirmation that says what approving does: pays the net amount at once, or (above
 * the four-eyes threshold) records the first approval and names who may give the second.
 */
export function ApproveButton({
  item,
  onApprove,
  large = false,
}: {
  item: AdminWithdrawalItem;
  onApprove: () => Promise<unknown>;
  /** A phone card's thumb-sized button (44 px) instead of the table's small one. */
  large?: boolean;
}) {
  const { t } = useTranslation();
  const me = useMe();
  const [confirming, setConfirming] = useState(false);
  // The confirmation (antd's Popconfirm and its trigger) is mounted at the first press, not with each
  // of a page of cards; the button keeps its focus across that.
  const [armed, setArmed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (armed) button.current?.focus();
  }, [armed]);
  // The queue holds still while the operator reads what approving does.
  usePauseWhile(confirming);
  const blocked = approveBlock(item, me.id);
  if (blocked) {
    return (
      <Space direction="vertical" size={2}>
        <Button type="primary" size={large ? 'large' : 'small'} block disabled>
          {t('withdrawals.approve')}
        </Button>
        <Typography.Text type="secondary" className="cell-wrap approve-blocked" role="note">
          {t(blocked === 'gaveFirst' ? 'withdrawals.approveGaveFirst' : 'withdrawals.approveOwnRequest')}
        </Typography.Text>
      </Space>
    );
  }
  const amounts = {
    amount: rupees(item.amount),
    fee: rupees(item.fee),
    net: rupees(item.payout),
    user: phoneNumber(item.username),
  };
  const secondNeeded = item.approvals.required >= 2 && !item.approvals.first;
  const effect = secondNeeded
    ? t('withdrawals.approveFirstOfTwo', amounts)
    : item.approvals.first
      ? t('withdrawals.approveSecond', { ...amounts, id: item.approvals.first.reviewerId })
      : t('withdrawals.approveSends', amounts);
  const hasFee = (parseRupees(item.fee) ?? 0n) > 0n;
  if (!armed) {
    return (
      <Button
        type="primary"
        size={large ? 'large' : 'small'}
        block
        onClick={() => {
          setArmed(true);
          setConfirming(true);
        }}
      >
        {t('withdrawals.approve')}
      </Button>
    );
  }
  return (
    <Popconfirm
      open={confirming}
      title={t('withdrawals.approveTitle', amounts)}
      description={
        <Space direction="vertical" size={4} className="approve-confirm">
          <span>{t(hasFee ? 'withdrawals.approveAmounts' : 'withdrawals.approveAmountsNoFee', amounts)}</span>
          <span>{effect}</span>
        </Space>
      }
      okText={secondNeeded ? t('withdrawals.approveFirstOk') : t('withdrawals.approve')}
      cancelText={t('actions.cancel')}
      onOpenChange={setConfirming}
      onConfirm={() => onApprove().catch(() => undefined)}
    >
      <Button ref={button} type="primary" size={large ? 'large' : 'small'} block>
        {t('withdrawals.approve')}
      </Button>
    </Popconfirm>
  );
}
