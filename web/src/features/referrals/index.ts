export { InvitePage } from './pages/invite-page';
