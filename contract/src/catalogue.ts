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
  // admin
  cannot_change_own_account: 409,
  user_password_reset: 200,
} as const;

export type MessageKey = keyof typeof CATALOGUE;
export type Messages = Record<MessageKey, string>;

export function statusOf(key: MessageKey): number {
  return CATALOGUE[key];
}

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && Object.hasOwn(CATALOGUE, value);
}
