// The public face of the payouts feature (the payment gateway that pays an approved withdrawal).
export type { PayoutGateway } from './payouts.gateway';
export { payoutsHandlers } from './payouts.routes';
export { createSandboxGateway } from './payouts.sandbox';
export { createPayoutsService } from './payouts.service';
