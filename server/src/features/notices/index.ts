// The public face of the notices feature.

export { deleteUserNoticeReads, noticeForPush, noticeReadsOf } from './notices.queries';
export { register } from './notices.routes';
