// The public face of the account feature (Help, Terms and Privacy pages; account deletion).
export { accountHandlers } from './account.routes';
export { createAccountService } from './account.service';
