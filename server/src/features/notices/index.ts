// The public face of the notices feature.

export { deleteUserNoticeReads, noticeReadsOf } from './notices.queries';
export { register } from './notices.routes';
