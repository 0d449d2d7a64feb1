// The public face of the payouts feature (the payment gateway that pays an approved withdrawal).
export type { PayoutGateway } from './payouts.gateway';
export { payoutFigures } from './payouts.queries';
export { callbackUrl, createPayouts, register } from './payouts.routes';
export { recoveryRule } from './payouts.rules';
export type { PayoutsService } from './payouts.service';
export { forgetSandboxAccounts } from './sandbox.queries';
