import type { ComplaintDetail, ComplaintEvent } from '@kamai/contract';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { SkeletonRows } from '../../../components/skeleton-rows';
import { currentLocale } from '../../../i18n';
import { formatDateTime } from '../../../lib/format-date';
import { useSearchParams } from '../../../lib/router';
import '../../../i18n/errors';
import { useComplaint } from '../api/complaints';
import { STATE_COLORS } from '../components/complaint-row';
import '../complaints.css';

/** One step of the history: who did what, when, and what they wrote. */
function Step({ event }: { event: ComplaintEvent }) {
  const { t } = useTranslation(['complaints', 'errors']);
  const title =
    event.kind === 'closed' && event.outcome
      ? t('history.closed', { outcome: t(`errors:complaint_outcome_${event.outcome}`) })
      : t(`history.${event.kind}`);
  return (
    <li className={`complaint-step flex complaint-step-${event.kind}`}>
      <span className="complaint-step-dot flex-none" aria-hidden />
      <span className="stack complaint-step-text">
        <span className="semibold text-13">{title}</span>
        <time className="muted text-12" dateTime={event.at}>
          {formatDateTime(event.at, currentLocale())}
        </time>
        {event.text && <span className="complaint-step-body text-14 wrap-anywhere">{event.text}</span>}
      </span>
    </li>
  );
}

/** The deadlines of a complaint not closed yet: the acknowledgement's until it came, then the resolution's. */
function Deadlines({ complaint }: { complaint: ComplaintDetail }) {
  const { t } = useTranslation('complaints');
  if (complaint.state === 'closed') return null;
  const locale = currentLocale();
  return (
    <dl className="complaint-deadlines text-13">
      {complaint.state === 'open' && (
        <div>
          <dt className="muted">{t('deadlines.ack')}</dt>
          <dd>{formatDateTime(complaint.ackDueAt, locale)}</dd>
        </div>
      )}
      <div>
        <dt className="muted">{t('deadlines.resolve')}</dt>
        <dd>{formatDateTime(complaint.resolveDueAt, locale)}</dd>
      </div>
    </dl>
  );
}

/** /Complaint?id=: a complaint's number, state, deadlines and history, as operators answered it. */
export function ComplaintPage() {
  const { t } = useTranslation(['complaints', 'errors', 'common']);
  const [params] = useSearchParams();
  const query = useComplaint(Number(params.get('id')));
  if (query.isPending && query.fetchStatus !== 'idle')
    return <SkeletonRows rows={4} label={t('common:dialog.loading')} />;
  if (!query.data) return <EmptyState title={t('notFound')} />;
  const complaint = query.data;
  return (
    <article className="stack complaint-detail">
      <header className="card stack complaint-head">
        <div className="space-between">
          <h2 className="complaint-number text-17 semibold">{complaint.number}</h2>
          <Tag color={STATE_COLORS[complaint.state]} round>
            {t(`errors:complaint_state_${complaint.state}`)}
          </Tag>
        </div>
        <p className="text-14">{t(`errors:complaint_category_${complaint.category}`)}</p>
        {complaint.subject && (
          <p className="muted text-13">{t(`about.${complaint.subject.kind}`, { id: complaint.subject.id })}</p>
        )}
        <Deadlines complaint={complaint} />
      </header>
      <section className="card complaint-history" aria-labelledby="complaint-history">
        <h3 id="complaint-history" className="text-15 semibold">
          {t('history.label')}
        </h3>
        <ol className="plain-list complaint-steps">
          {complaint.events.map((event) => (
            <Step key={`${event.kind}:${event.at}`} event={event} />
          ))}
        </ol>
      </section>
      <p className="muted text-12 complaint-promise">{t('promise')}</p>
    </article>
  );
}
