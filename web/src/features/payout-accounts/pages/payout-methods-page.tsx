import { PAYOUT_ACCOUNTS_MAX } from '@kamai/contract';
import Button from 'antd-mobile/es/components/button';
import { AddOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { PullRefresh } from '../../../components/pull-refresh';
import { SkeletonRows } from '../../../components/skeleton-rows';
import { showForm } from '../../../lib/form-dialog';
import { usePayoutAccounts } from '../api/payout-accounts';
import { PayoutAccountRow } from '../components/payout-account-row';
import '../payout-accounts.css';

/** /List6: the caller's payout accounts (one page of at most 10), add, edit and delete. */
export function PayoutMethodsPage() {
  const { t } = useTranslation(['payoutAccounts', 'common']);
  const query = usePayoutAccounts();
  const items = query.data ?? [];
  const full = items.length >= PAYOUT_ACCOUNTS_MAX;

  let body: React.ReactNode;
  if (query.isPending) body = <SkeletonRows label={t('common:dialog.loading')} />;
  else if (query.isError)
    body = (
      <div className="stack list-status muted text-center">
        <p>{t('common:request.failed')}</p>
        <Button size="small" shape="rounded" onClick={() => void query.refetch()}>
          {t('common:request.retry')}
        </Button>
      </div>
    );
  else if (items.length === 0)
    body = <EmptyState title={t('methods.empty.title')} description={t('methods.empty.description')} />;
  else
    body = (
      <ul className="card plain-list record-list divided" aria-label={t('methods.label')}>
        {items.map((item) => (
          <li key={item.id}>
            <PayoutAccountRow item={item} />
          </li>
        ))}
      </ul>
    );

  return (
    <PullRefresh onRefresh={() => query.refetch()}>
      <div className="stack paged-list">
        {body}
        <div className="payout-add">
          <Button
            block
            color="primary"
            disabled={full}
            onClick={() =>
              // The first account is the default; a later one becomes it only if the user says so.
              showForm('payoutAccount', { isDefault: items.length === 0 ? '1' : '0' })
            }
          >
            <AddOutline aria-hidden /> {t('methods.add')}
          </Button>
          {full && <p className="text-field-note muted">{t('methods.full', { max: PAYOUT_ACCOUNTS_MAX })}</p>}
        </div>
      </div>
    </PullRefresh>
  );
}
