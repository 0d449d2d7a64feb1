import type { PayoutAccountItem } from '@kamai/contract';
import { useTranslation } from 'react-i18next';
import '../payout-accounts.css';
import { AccountCheck } from './account-check';

type Account = Pick<PayoutAccountItem, 'accountType' | 'accountNoMasked' | 'accountName' | 'ifsc'> &
  Partial<Pick<PayoutAccountItem, 'verification'>>;

/** A payout account in words: type, masked number (the UPI ID's start and handle), holder, IFSC. */
export function AccountLabel({ account }: { account: Account }) {
  const { t } = useTranslation('payoutAccounts');
  return (
    <span className="stack account-label">
      <span className="account-label-number tabular wrap-anywhere semibold text-15">
        <span className={`account-type account-type-${account.accountType}`}>
          {t(`account.${account.accountType}`)}
        </span>{' '}
        {account.accountNoMasked}
      </span>
      <span className="account-label-name muted ellipsis text-13">
        {account.accountName}
        {account.ifsc && ` · ${account.ifsc}`}
      </span>
      <AccountCheck verification={account.verification} />
    </span>
  );
}
