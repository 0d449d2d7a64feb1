// The public face of the linked-accounts feature.
export type { LinkProvider } from './linked-accounts.provider';
export { register } from './linked-accounts.routes';
