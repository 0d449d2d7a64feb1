// The public face of the linked-accounts feature.
export { createLinkedAdminService } from './linked-accounts.admin';
export { type LinkProvider, sandboxLinkProvider } from './linked-accounts.provider';
export { findAccountByPhone } from './linked-accounts.queries';
export { linkedAccountsHandlers } from './linked-accounts.routes';
export { createLinkedAccountsService } from './linked-accounts.service';
