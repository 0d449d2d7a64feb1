import { formatMoney } from '@kamai/contract/constants';
import { useTranslation } from 'react-i18next';
import { PagedList } from '../../../components/paged-list';
import { currentLocale } from '../../../i18n';
import { formatCount } from '../../../lib/format-date';
import { useInviteList } from '../api/get-invite-list';
import { InviteRow } from '../components/invite-row';
import { InviteShare } from '../components/invite-share';
import '../referrals.css';

/** /List3: the caller's invite code and link, totals, and the friends who joined with them. */
export function InvitePage({ inviteCode }: { inviteCode?: string }) {
  const { t } = useTranslation('referrals');
  const locale = currentLocale();
  const query = useInviteList();
  const totals = query.data?.pages[0]?.totals;
  const header = (
    <>
      <InviteShare code={inviteCode} />
      <section className="invite-totals" aria-label={t('totalsLabel')}>
        <div className="stack card invite-total">
          <span className="invite-total-value tabular bold">{totals ? formatCount(totals.count, locale) : '–'}</span>
          <span className="invite-total-label muted text-12">{t('totals.count')}</span>
          {totals && totals.qualified !== totals.count && (
            <span className="invite-total-label muted text-12">
              {t('totalsQualified', { shown: formatCount(totals.qualified, locale) })}
            </span>
          )}
        </div>
        <div className="stack card invite-total">
          <span className="invite-total-value tabular bold">
            {totals ? formatMoney(totals.rebateEarned, locale) : '–'}
          </span>
          <span className="invite-total-label muted text-12">{t('totals.rebate')}</span>
        </div>
        <div className="stack card invite-total invite-total-wide">
          <span className="invite-total-value tabular bold">
            {totals ? formatMoney(totals.rebatePending, locale) : '–'}
          </span>
          <span className="invite-total-label muted text-12">{t('totalsPending')}</span>
          <span className="invite-total-label muted text-12">{t('totalsPendingHint')}</span>
        </div>
      </section>
      <h2 className="list-heading muted semibold text-14">{t('listHeading')}</h2>
    </>
  );
  return (
    <PagedList
      query={query}
      header={header}
      label={t('listHeading')}
      keyOf={(item) => item.id}
      renderItem={(item) => <InviteRow item={item} />}
      empty={{ title: t('empty.title'), description: t('empty.description') }}
    />
  );
}
