import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface EmptyStateViewProps {
  /** The picture; the box keeps its height (app/styles.css `.empty-state-image`) while it is absent. */
  image?: ReactNode;
  title?: string;
  description?: string;
  children?: ReactNode;
}

/**
 * The empty state's layout, as antd-mobile's ErrorBlock lays it out (app/styles.css `.empty-state`)
 * but without its component, stylesheet and locale provider, and without the picture itself, so the
 * first route can draw it without the picture's code (offline-state.tsx).
 */
export function EmptyStateView(props: EmptyStateViewProps) {
  const { t } = useTranslation();
  return (
    <div className="empty-state text-center">
      <div className="empty-state-image">{props.image}</div>
      <div className="empty-state-text text-12">
        <div className="empty-state-title">{props.title ?? t('empty.title')}</div>
        <div className="empty-state-description">{props.description ?? t('empty.description')}</div>
      </div>
      {props.children && <div className="empty-state-action">{props.children}</div>}
    </div>
  );
}
