import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { formatDateTime } from '../../../lib/format-date';
import { invalidateQueries } from '../../../lib/query-later';
import { useNow } from '../../../lib/use-now';
import { countdown } from '../countdown';

/**
 * "Ends in 2d 03:14:05", ticking each second until the task's end (one timer per card, stopped at the
 * end and on unmount), then "Ended" while the list is fetched again: the server no longer lists it.
 */
export function TaskEnds({ endsAt }: { endsAt: string }) {
  const { t } = useTranslation('tasks');
  const end = Date.parse(endsAt);
  const now = useNow(end > Date.now());
  const left = countdown(end, now);
  const ended = left === undefined;
  useEffect(() => {
    if (ended) void invalidateQueries(['tasks', 'list']);
  }, [ended]);
  const text = !left
    ? t('countdown.ended')
    : left.days > 0
      ? t('countdown.days', { days: left.days, clock: left.clock })
      : t('countdown.clock', { clock: left.clock });
  return (
    <p className="task-card-ends tabular text-12">
      <time dateTime={endsAt} title={formatDateTime(endsAt, currentLocale())}>
        {text}
      </time>
    </p>
  );
}
