// The public face of the account feature (Help, Terms and Privacy pages; account deletion).
export { register } from './account.routes';
export { creditAfterDeletionRule } from './account.rules';
export { grievanceOfficerOf } from './account.service';
