// The public face of the credits feature: an operator's manual credits to a user's wallet.
export { register } from './credits.routes';
