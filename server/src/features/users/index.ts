// The public face of the users feature (accounts, profiles, invite codes).
export { createIdentityLedger, type IdentityLedger, isReturningIdentity } from './identity-ledger';
export { uniqueInviteCode } from './invite-code';
export {
  anonymiseUser,
  findUserById,
  findUserByIdentity,
  findUserByInviteCode,
  findUserByUsername,
  insertUser,
  inviteeJoinDates,
  lockIdentity,
  lockLiveUser,
  lockUserNoKeyUpdate,
  lockUserShared,
  markDuplicateIdentity,
  updatePassword,
  updateUser,
} from './users.queries';
export { register } from './users.routes';
export { createUsersService, type StaffOutcome, type StaffSeed, staffSeeds } from './users.service';
