import { LINKED_EVENT_LABEL, LINKED_STATUS_LABEL, type LinkedEventItem } from '@kamai/contract';
import { formatMoney } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import '../../../i18n/errors';
import { formatDateTime } from '../../../lib/format-date';
import { useLinkedLog } from '../api/get-linked-log';
import { formatLinkedPhone } from '../format';
import { useFormatDuration } from './duration';

function EventDetail({ event }: { event: LinkedEventItem }) {
  const { t } = useTranslation(['linked', 'errors']);
  const duration = useFormatDuration();
  if (event.kind === 'settled' && event.amount !== null) {
    return (
      <>
        {t('log.settled', { amount: formatMoney(event.amount, currentLocale()), time: duration(event.seconds ?? 0) })}
      </>
    );
  }
  if (event.kind === 'status_changed' && event.fromStatus && event.toStatus) {
    return (
      <>
        {t('log.change', {
          from: t(`errors:${LINKED_STATUS_LABEL[event.fromStatus]}`),
          to: t(`errors:${LINKED_STATUS_LABEL[event.toStatus]}`),
        })}
      </>
    );
  }
  if (event.method) return <>{event.method === 'qr' ? t('log.byQr') : t('log.byCode')}</>;
  return null;
}

/** One number's event log (links, re-binds, status changes, log-outs, settlements), newest first. */
export function LinkedLog({ phone, id }: { phone: string; id: string }) {
  const { t } = useTranslation(['linked', 'errors', 'common']);
  const locale = currentLocale();
  const log = useLinkedLog(phone);
  const events = log.data?.pages.flatMap((page) => page.items) ?? [];

  if (log.isPending) {
    return (
      <div id={id} className="account-log-status muted text-13">
        <DotLoading />
      </div>
    );
  }
  if (log.isError && events.length === 0) {
    return (
      <div id={id} className="account-log-status muted text-13">
        <p>{t('common:request.failed')}</p>
        <Button size="mini" shape="rounded" onClick={() => void log.refetch()}>
          {t('common:request.retry')}
        </Button>
      </div>
    );
  }
  return (
    <div id={id} className="stack account-log">
      {events.length === 0 ? (
        <p className="account-log-status muted text-13">{t('log.empty')}</p>
      ) : (
        <ol className="plain-list" aria-label={t('log.label', { phone: formatLinkedPhone(phone) })}>
          {events.map((event) => (
            <li key={event.id} className="account-log-event">
              <p className="account-log-title semibold text-14 flex flex-wrap">
                <span>{t(`errors:${LINKED_EVENT_LABEL[event.kind]}`)}</span>
                <span className="account-log-detail">
                  <EventDetail event={event} />
                </span>
              </p>
              <p className="account-log-meta muted text-12">
                {t(`log.actor.${event.actor}`)} ·{' '}
                <time dateTime={event.createdAt}>{formatDateTime(event.createdAt, locale)}</time>
              </p>
            </li>
          ))}
        </ol>
      )}
      {log.hasNextPage && (
        <Button size="mini" shape="rounded" loading={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
          {t('log.more')}
        </Button>
      )}
    </div>
  );
}
