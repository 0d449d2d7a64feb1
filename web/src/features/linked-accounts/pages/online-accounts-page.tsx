import type { LinkedAccountItem } from '@kamai/contract';
import { formatMoney } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedList } from '../../../components/paged-list';
import { paths } from '../../../config/paths';
import { currentLocale } from '../../../i18n';
import { useNavigate } from '../../../lib/router';
import '../../../i18n/errors';
import { toastSuccess } from '../../../lib/toast';
import { useLinkedPage } from '../api/get-linked-page';
import { LinkedAccountCard } from '../components/linked-account-card';
import '../linked-accounts.css';

/** Says "binding successful" when a re-bind that was waiting in this list completes (spec section 4). */
function useRebindOutcome(items: LinkedAccountItem[]) {
  const { t } = useTranslation('errors');
  const pending = useRef(new Map<string, string>());
  useEffect(() => {
    for (const item of items) {
      const linkedAt = pending.current.get(item.phone);
      if (item.pairingPending) pending.current.set(item.phone, item.linkedAt);
      else if (linkedAt !== undefined) {
        pending.current.delete(item.phone);
        if (linkedAt !== item.linkedAt) toastSuccess(t('binding_successful'));
      }
    }
  }, [items, t]);
}

/** /List5: the caller's linked messaging accounts. */
export function OnlineAccountsPage() {
  const { t } = useTranslation('linked');
  const navigate = useNavigate();
  const query = useLinkedPage();
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  const hourlyRate = query.data?.pages[0]?.hourlyRate;
  useRebindOutcome(items);

  const header = (
    <div className="card accounts-header row space-between">
      <p className="accounts-rate muted text-13">
        {hourlyRate ? t('accounts.rate', { amount: formatMoney(hourlyRate, currentLocale()) }) : '\u00a0'}
      </p>
      <Button size="small" shape="rounded" color="primary" onClick={() => navigate(paths.add)}>
        {t('accounts.add')}
      </Button>
    </div>
  );
  return (
    <PagedList
      query={query}
      header={header}
      label={t('accounts.label')}
      listClassName="stack plain-list account-list"
      keyOf={(item) => item.id}
      renderItem={(item) => (
        <LinkedAccountCard item={item} fetchedAt={query.dataUpdatedAt} hourlyRate={hourlyRate ?? '0'} />
      )}
      empty={{ title: t('accounts.empty.title'), description: t('accounts.empty.description') }}
    />
  );
}
