import { emptyImage } from 'antd-mobile/es/components/error-block/images/empty';
import { EmptyStateView, type EmptyStateViewProps } from './empty-state-view';

/**
 * A page or section with nothing to show yet: antd-mobile's "empty" picture with a title, a line of
 * text and an optional action (the layout is `EmptyStateView`). The picture and its helpers weigh
 * ~4.7 KB gzip: a state on the first route shows `OfflineState` (offline-state.tsx), which fetches
 * this module when it is first shown.
 */
export function EmptyState(props: Omit<EmptyStateViewProps, 'image'>) {
  return <EmptyStateView {...props} image={emptyImage} />;
}
