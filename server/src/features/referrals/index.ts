// The public face of the referrals feature (invitees and the rebates their earnings pay).
export { creditWithRebates } from './referrals.credit';
export { countInvitees, qualifiedInviteesOf, type RebatePlan, rebatePlanOf, toRebatePlan } from './referrals.queries';
export { register } from './referrals.routes';
