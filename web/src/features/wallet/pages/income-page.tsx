import { useTranslation } from 'react-i18next';
import { PagedList } from '../../../components/paged-list';
import { useBalanceList } from '../api/get-balance-list';
import { BalanceRow } from '../components/balance-row';
import { IncomeChart } from '../components/income-chart';

/** /List2: the last days' earnings as a chart, then every movement of the caller's wallet, newest first. */
export function IncomePage() {
  const { t } = useTranslation('wallet');
  const query = useBalanceList();
  return (
    <PagedList
      query={query}
      label={t('listLabel')}
      keyOf={(item) => item.id}
      renderItem={(item) => <BalanceRow item={item} />}
      empty={{ title: t('empty.title'), description: t('empty.description') }}
      header={<IncomeChart />}
    />
  );
}
