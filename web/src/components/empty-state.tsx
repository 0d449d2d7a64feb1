import { emptyImage } from 'antd-mobile/es/components/error-block/images/empty';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface EmptyStateProps {
  title?: string;
  description?: string;
  children?: ReactNode;
}

/**
 * A page or section with nothing to show yet: antd-mobile's "empty" picture with a title, a line of
 * text and an optional action, laid out as its ErrorBlock does (app/styles.css `.empty-state`) but
 * without its component, stylesheet and locale provider.
 */
export function EmptyState(props: EmptyStateProps) {
  const { t } = useTranslation();
  return (
    <div className="empty-state text-center">
      <div className="empty-state-image">{emptyImage}</div>
      <div className="empty-state-text text-12">
        <div className="empty-state-title">{props.title ?? t('empty.title')}</div>
        <div className="empty-state-description">{props.description ?? t('empty.description')}</div>
      </div>
      {props.children && <div className="empty-state-action">{props.children}</div>}
    </div>
  );
}
