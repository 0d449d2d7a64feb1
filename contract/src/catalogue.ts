/**
 * The error and message catalogue (DESIGN.md §4). Each key has the HTTP status it answers with;
 * its text in every locale lives in `messages/<locale>.ts`, typed against these keys so a missing
 * translation is a type error.
 */
export const CATALOGUE = {
  // success
  ok: 200,
  code_sent: 200,
  registered: 200,
  logged_in: 200,
  logged_out: 200,
  password_changed: 200,
  password_reset: 200,
  // generic
  validation_failed: 400,
  malformed_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal_error: 500,
  service_unavailable: 503,
  // field validation (spec section 5)
  enter_phone_or_email: 400,
  enter_valid_email: 400,
  phone_format_wrong: 400,
  enter_phone: 400,
  enter_phone_number: 400,
  invalid_phone_number_format: 400,
  target_invalid: 400,
  otp_type_invalid: 400,
  enter_password: 400,
  password_length: 400,
  passwords_do_not_match: 400,
  enter_old_password: 400,
  enter_new_password: 400,
  enter_verification_code: 400,
  verification_code_format: 400,
  enter_invite_code: 400,
  invalid_amount: 400,
  enter_withdrawal_amount: 400,
  withdrawal_info_incomplete: 400,
  enter_recipient_name: 400,
  enter_account_number: 400,
  invalid_ifsc: 400,
  // domain
  verification_code_not_found: 400,
  verification_code_incorrect: 400,
  invite_code_not_found: 400,
  username_taken: 409,
  username_does_not_exist: 404,
  incorrect_username_or_password: 400,
  incorrect_old_password: 400,
  otp_resend_wait: 429,
  otp_rate_limited: 429,
  login_locked: 429,
  account_frozen: 403,
  insufficient_balance: 409,
  payment_failed: 409,
  task_reward_credited: 200,
  survey_submitted: 200,
  task_not_found: 404,
  task_condition_unmet: 409,
  task_already_claimed: 409,
  task_not_active: 409,
  task_title_required: 400,
  system_task_locked: 409,
  survey_answer_required: 400,
  survey_already_submitted: 409,
  rebate_bps_range: 400,
  enter_remark: 400,
  user_not_found: 404,
  // payout accounts
  enter_upi_id: 400,
  invalid_upi_id: 400,
  invalid_account_number: 400,
  invalid_recipient_name: 400,
  enter_ifsc: 400,
  payout_account_not_found: 404,
  payout_account_in_use: 409,
  payout_account_limit: 409,
  payout_account_bound: 200,
  payout_account_saved: 200,
  payout_account_deleted: 200,
  // withdrawals
  withdrawal_submitted: 200,
  withdrawal_reviewed: 200,
  withdrawal_below_minimum: 400,
  withdrawal_above_maximum: 400,
  withdrawal_daily_count_reached: 409,
  withdrawal_daily_total_reached: 409,
  idempotency_key_invalid: 400,
  idempotency_key_reused: 409,
  withdrawal_not_found: 404,
  withdrawal_state_conflict: 409,
  cannot_review_own_withdrawal: 403,
  enter_reject_reason: 400,
  withdrawal_limits_invalid: 400,
  withdrawal_state_pending: 200,
  withdrawal_state_approved: 200,
  withdrawal_state_processing: 200,
  withdrawal_state_paid: 200,
  withdrawal_state_failed: 200,
  withdrawal_state_rejected: 200,
  // payouts
  payout_bad_signature: 401,
  payout_stale_timestamp: 401,
  payout_unknown_order: 400,
  payout_amount_mismatch: 400,
  payout_order_not_dispatched: 400,
} as const;

export type MessageKey = keyof typeof CATALOGUE;
export type Messages = Record<MessageKey, string>;

export function statusOf(key: MessageKey): number {
  return CATALOGUE[key];
}

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && Object.hasOwn(CATALOGUE, value);
}
