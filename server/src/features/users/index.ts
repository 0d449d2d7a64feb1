// The public face of the users feature (accounts, profiles, invite codes, login failures).
export { uniqueInviteCode } from './invite-code';
export {
  clearLoginFailures,
  countRecentLoginFailures,
  findUserById,
  findUserByInviteCode,
  findUserByUsername,
  insertUser,
  recordLoginFailure,
  updatePassword,
} from './users.queries';
export { register } from './users.routes';
export { createUsersService } from './users.service';
