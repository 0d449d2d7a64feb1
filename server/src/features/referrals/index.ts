// The public face of the referrals feature (invitees and the rebates their task rewards owe).
export { creditWithRebates } from './referrals.credit';
export {
  countInvitees,
  findRebatePlan,
  qualifiedInviteesOf,
  type RebatePlan,
  rebatePlanOf,
  toRebatePlan,
} from './referrals.queries';
export {
  type RebateReversalReason,
  type RebateRuleViolation,
  rebateRuleViolations,
  releaseDueRebates,
  reversePendingRebates,
} from './referrals.rebates';
export { register } from './referrals.routes';
