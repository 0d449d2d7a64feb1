import type { ComplaintItem, ComplaintState } from '@kamai/contract';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths';
import { currentLocale } from '../../../i18n';
import { formatDateTime } from '../../../lib/format-date';
import { Link } from '../../../lib/router';
import '../../../i18n/errors';
import '../complaints.css';

export const STATE_COLORS: Record<ComplaintState, 'warning' | 'primary' | 'default'> = {
  open: 'warning',
  acknowledged: 'primary',
  closed: 'default',
};

/** One complaint in the list: its number, what it is about, when it was raised and where it stands. */
export function ComplaintRow({ item }: { item: ComplaintItem }) {
  const { t } = useTranslation(['complaints', 'errors']);
  const locale = currentLocale();
  return (
    <Link to={`${paths.complaint}?id=${item.id}`} className="record-row complaint-row flex space-between">
      <span className="stack record-row-main">
        <span className="record-row-title semibold text-15">{item.number}</span>
        <span className="record-row-cause text-13">{t(`errors:complaint_category_${item.category}`)}</span>
        <span className="complaint-excerpt muted text-13 wrap-anywhere">{item.text}</span>
        <time className="muted text-12" dateTime={item.createdAt}>
          {formatDateTime(item.createdAt, locale)}
        </time>
      </span>
      <span className="stack record-row-side flex-none">
        <Tag color={STATE_COLORS[item.state]} round>
          {t(`errors:complaint_state_${item.state}`)}
        </Tag>
      </span>
    </Link>
  );
}
