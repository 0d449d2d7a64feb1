import { EmptyState } from '../../components/empty-state';

/** Pages whose feature arrives with a later issue: the layout's title bar and an honest empty state. */
export default function EmptyPage() {
  return <EmptyState />;
}
