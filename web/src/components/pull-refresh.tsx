import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** antd-mobile's pull to refresh with its texts in the app's language (its own locale is English only here). */
export function PullRefresh({ onRefresh, children }: { onRefresh: () => Promise<unknown>; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <PullToRefresh
      onRefresh={async () => {
        await onRefresh();
      }}
      pullingText={t('pull.pulling')}
      canReleaseText={t('pull.release')}
      refreshingText={t('pull.refreshing')}
      completeText={t('pull.done')}
    >
      {children}
    </PullToRefresh>
  );
}
