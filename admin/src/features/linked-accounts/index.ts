// What other features use of linked accounts.
export { UserLinkedAccounts } from './components/user-linked-accounts';
