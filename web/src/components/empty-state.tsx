import ErrorBlock from 'antd-mobile/es/components/error-block';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface EmptyStateProps {
  title?: string;
  description?: string;
  children?: ReactNode;
}

/** A page or section with nothing to show yet. */
export function EmptyState(props: EmptyStateProps) {
  const { t } = useTranslation();
  return (
    <ErrorBlock
      className="empty-state"
      status="empty"
      title={props.title ?? t('empty.title')}
      description={props.description ?? t('empty.description')}
    >
      {props.children}
    </ErrorBlock>
  );
}
