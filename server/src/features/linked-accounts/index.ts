// The public face of the linked-accounts feature.
export type { LinkProvider } from './linked-accounts.provider';
export { forgetUserLinkedAccounts } from './linked-accounts.queries';
export { register } from './linked-accounts.routes';
