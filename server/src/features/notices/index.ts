// The public face of the notices feature.

export { deleteUserNoticeReads } from './notices.queries';
export { register } from './notices.routes';
