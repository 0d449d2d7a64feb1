import { formatMoney } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import { ArrowDownCircleOutline, HistogramOutline, TeamOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths';
import { currentLocale } from '../../../i18n';
import { showForm } from '../../../lib/form-dialog';
import { Link } from '../../../lib/router';
import type { getUserDetail } from '../api/user-detail-query';

/** A read as the card shows it: TanStack Query's result, or Home's first read before the library loads. */
export interface UserRead {
  data: Awaited<ReturnType<typeof getUserDetail>> | undefined;
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/**
 * Home's balance at a glance, with the withdraw form and the way to the income records and the invite
 * page, drawn from a read it is given (balance-card.tsx gives TanStack Query's).
 */
export function BalanceCardView({ user }: { user: UserRead }) {
  const { t } = useTranslation(['users', 'common']);
  return (
    <section className="hero-card balance-card" aria-labelledby="balance-card-label" aria-busy={user.isPending}>
      <p id="balance-card-label" className="balance-card-label text-13">
        {t('users:balance')}
      </p>
      {user.data ? (
        <p className="balance-card-value tabular bold">{formatMoney(user.data.balance, currentLocale())}</p>
      ) : user.isError ? (
        <p className="balance-card-error text-14">
          {t('users:loadFailed')}{' '}
          <Button size="mini" shape="rounded" onClick={() => void user.refetch()}>
            {t('common:request.retry')}
          </Button>
        </p>
      ) : (
        <span className="skeleton-line skeleton-line-light" aria-hidden />
      )}
      <div className="balance-card-links flex flex-wrap">
        <button type="button" className="balance-card-withdraw" onClick={() => showForm('withdraw')}>
          <ArrowDownCircleOutline aria-hidden /> {t('users:entries.withdraw')}
        </button>
        <Link to={paths.income}>
          <HistogramOutline aria-hidden /> {t('common:screens.income')}
        </Link>
        <Link to={paths.invites}>
          <TeamOutline aria-hidden /> {t('users:inviteFriends')}
        </Link>
      </div>
    </section>
  );
}
