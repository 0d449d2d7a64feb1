export { UnreadBadge } from './components/unread-badge';
export { NoticesPage } from './pages/notices-page';
