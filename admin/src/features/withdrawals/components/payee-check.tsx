import { type AdminWithdrawalItem, RISK_REASON_KEYS } from '@kamai/contract';
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The bank's check of the number paid, beside the risk (docs/decisions/payout-account-validation.md):
 * the name the user typed and the name the bank holds, with their match, so a reviewer reads both.
 * The server judges each match against the stored minimum (`nameMatchLow`); this only colours it. When
 * a match is low or the mismatch reason fired, the names on the user's other accounts the bank's name
 * was compared with follow, each with its match.
 */
export function PayeeCheck({ item }: { item: AdminWithdrawalItem }) {
  const { t } = useTranslation();
  const check = item.payeeCheck;
  if (!check) return null;
  const mismatch =
    check.nameMatchLow ||
    check.otherNames.some((other) => other.nameMatchLow) ||
    item.risk.reasons.includes(RISK_REASON_KEYS.bank_name_mismatch);
  return (
    <Space orientation="vertical" size={0} className="payee-check">
      <Typography.Text type="secondary">
        {t('withdrawals.payee.typed', { name: item.account.accountName })}
      </Typography.Text>
      {check.state === 'verifying' ? (
        <Typography.Text type="secondary">{t('withdrawals.payee.verifying')}</Typography.Text>
      ) : check.state === 'verified' ? (
        <Typography.Text type={check.nameMatchLow ? 'danger' : undefined}>
          {t('withdrawals.payee.bank', { name: check.registeredName ?? '', match: check.nameMatch ?? 0 })}
        </Typography.Text>
      ) : (
        <Typography.Text type="danger">
          {t('withdrawals.payee.unverified')}
          {check.reason && ` · ${check.reason}`}
        </Typography.Text>
      )}
      {mismatch && check.otherNames.length > 0 && (
        <>
          <Typography.Text type="secondary">{t('withdrawals.payee.others')}</Typography.Text>
          <ul className="payee-others">
            {check.otherNames.map((other, index) => (
              // The same names may recur across a user's accounts; their order is the server's.
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list from one answer
              <li key={index}>
                <Typography.Text type={other.nameMatchLow ? 'danger' : undefined}>
                  {other.registeredName === null
                    ? t('withdrawals.payee.otherTyped', { typed: other.accountName, match: other.nameMatch })
                    : t('withdrawals.payee.other', {
                        typed: other.accountName,
                        bank: other.registeredName,
                        match: other.nameMatch,
                      })}
                </Typography.Text>
              </li>
            ))}
          </ul>
        </>
      )}
    </Space>
  );
}
