import { createErrorBlock } from 'antd-mobile/es/components/error-block/create-error-block';
import { emptyImage } from 'antd-mobile/es/components/error-block/images/empty';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface EmptyStateProps {
  title?: string;
  description?: string;
  children?: ReactNode;
}

/** antd-mobile's ErrorBlock with only the one picture the app shows (the default bundles four, ~7 KB gzip). */
const ErrorBlock = createErrorBlock({ empty: emptyImage });

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
