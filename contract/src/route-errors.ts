import { type MessageKey, statusOf } from './catalogue';
import type { RouteDef } from './route-def';
import type { RouteName } from './routes';

/**
 * The catalogue keys a route answers besides the ones its shape implies (see `errorResponsesOf`): field
 * messages of its body or query and the domain refusals of its handler. The OpenAPI document lists them
 * per status; keep a route's list next to a new `AppError` its handler throws.
 */
export const ROUTE_ERRORS: { readonly [N in RouteName]?: readonly MessageKey[] } = {
  otpSend: [
    'enter_phone_or_email',
    'target_invalid',
    'otp_type_invalid',
    'invalid_phone_number_format',
    'enter_valid_email',
    'otp_resend_wait',
    'otp_rate_limited',
  ],
  register: [
    'enter_phone_or_email',
    'target_invalid',
    'enter_password',
    'password_length',
    'passwords_do_not_match',
    'enter_verification_code',
    'verification_code_format',
    'enter_invite_code',
    'verification_code_not_found',
    'verification_code_incorrect',
    'invite_code_not_found',
    'username_taken',
  ],
  login: ['enter_phone_or_email', 'enter_password', 'incorrect_username_or_password', 'login_locked', 'account_frozen'],
  resetPassword: [
    'enter_phone_or_email',
    'enter_password',
    'password_length',
    'passwords_do_not_match',
    'enter_verification_code',
    'verification_code_format',
    'verification_code_not_found',
    'verification_code_incorrect',
    'username_does_not_exist',
  ],
  editPassword: [
    'enter_old_password',
    'enter_new_password',
    'password_length',
    'passwords_do_not_match',
    'incorrect_old_password',
  ],
  readiness: [],
  objOtpSms: [
    'enter_phone_number',
    'invalid_phone_number_format',
    'otp_resend_wait',
    'otp_rate_limited',
    'too_many_requests',
  ],
  objOtpEmail: ['enter_valid_email', 'otp_resend_wait', 'otp_rate_limited', 'too_many_requests'],
  smsReportMsg91: ['unauthorized', 'forbidden', 'route_not_found'],
  taskFinish: ['task_not_found', 'task_condition_unmet', 'task_already_claimed', 'task_not_active'],
  adminTaskAdd: ['task_title_required'],
  adminTaskEdit: ['task_title_required', 'task_not_found', 'system_task_locked'],
  adminTaskDelete: ['task_not_found', 'system_task_locked'],
  adminTaskDetail: ['task_not_found'],
  surveySubmit: ['survey_answer_required', 'survey_already_submitted'],
  adminRebateSet: ['rebate_bps_range'],
  adminRevenueAdd: ['invalid_amount', 'enter_remark', 'user_not_found'],
  linkedGenPhoneCode: [
    'country_code_unsupported',
    'enter_phone_number',
    'invalid_phone_number_format',
    'phone_linked_elsewhere',
    'pairing_code_wait',
    'pairing_rate_limited',
  ],
  linkedGetQrCode: ['pairing_code_wait', 'pairing_rate_limited'],
  linkedQrStatus: ['pairing_not_found'],
  linkedLogout: ['linked_account_not_found'],
  linkedSettlement: ['linked_account_not_found', 'linked_settle_wait', 'linked_nothing_to_settle'],
  adminWsComplete: ['linked_account_not_found'],
  adminWsStatus: ['linked_account_not_found', 'linked_status_invalid'],
  adminWsRateSet: ['linked_rate_range'],
  noticeDetail: ['notice_not_found'],
  adminNoticeAdd: ['enter_notice_title', 'enter_notice_body'],
  adminNoticeEdit: ['enter_notice_title', 'enter_notice_body', 'notice_not_found'],
  adminNoticeDelete: ['notice_not_found'],
  adminNoticeDetail: ['notice_not_found'],
  adminToolUpload: [
    'upload_file_missing',
    'upload_image_unreadable',
    'upload_dimensions',
    'upload_too_large',
    'upload_type_unsupported',
    'upload_type_mismatch',
  ],
  adminUserDetail: ['user_not_found'],
  adminUserFreeze: ['user_not_found', 'cannot_change_own_account'],
  adminUserRole: ['user_not_found', 'cannot_change_own_account'],
  adminUserResetPassword: ['user_not_found', 'password_length'],
  wdaccountBind: [
    'enter_upi_id',
    'invalid_upi_id',
    'enter_account_number',
    'invalid_account_number',
    'enter_recipient_name',
    'invalid_recipient_name',
    'enter_ifsc',
    'invalid_ifsc',
    'payout_account_limit',
  ],
  wdaccountEdit: [
    'enter_upi_id',
    'invalid_upi_id',
    'invalid_account_number',
    'invalid_recipient_name',
    'invalid_ifsc',
    'payout_account_not_found',
    'payout_account_in_use',
  ],
  wdaccountDelete: ['payout_account_not_found', 'payout_account_in_use'],
  withdrawAdd: [
    'enter_withdrawal_amount',
    'invalid_amount',
    'withdrawal_info_incomplete',
    'idempotency_key_invalid',
    'withdrawal_below_minimum',
    'withdrawal_above_maximum',
    'withdrawal_daily_count_reached',
    'withdrawal_daily_total_reached',
    'insufficient_balance',
    'payout_account_not_found',
    'idempotency_key_reused',
  ],
  adminWithdrawReview: [
    'enter_reject_reason',
    'withdrawal_not_found',
    'withdrawal_state_conflict',
    'cannot_review_own_withdrawal',
  ],
  adminSettingsSet: ['withdrawal_limits_invalid'],
  payNotifyMasterpay: [
    'payout_bad_signature',
    'payout_stale_timestamp',
    'payout_unknown_order',
    'payout_amount_mismatch',
    'payout_order_not_dispatched',
  ],
};

/** How long a 429 tells the client to wait when the refusal carries no `seconds` of its own. */
export const RATE_LIMIT_RETRY_SECONDS = 60;

/**
 * Every error status a route can answer and the catalogue keys of each: what its shape implies (input →
 * 400, a logged-in policy → 401/403, a body → 413/415, any route → 500/503) plus `ROUTE_ERRORS`.
 */
export function errorResponsesOf(name: RouteName, def: RouteDef): Map<number, MessageKey[]> {
  const byStatus = new Map<number, Set<MessageKey>>();
  const add = (key: MessageKey) => {
    const status = statusOf(key);
    if (!byStatus.has(status)) byStatus.set(status, new Set());
    byStatus.get(status)?.add(key);
  };
  // Any route: a path that cannot be decoded is refused before routing.
  add('validation_failed');
  if (def.body) add('malformed_json');
  if (def.policy !== 'public') {
    add('unauthorized');
    add('account_frozen');
  }
  if (def.policy === 'admin') add('forbidden');
  if (def.body || def.multipart) {
    add('payload_too_large');
    add('unsupported_media_type');
  }
  for (const key of ROUTE_ERRORS[name] ?? []) add(key);
  add('internal_error');
  add('service_unavailable');
  return new Map([...byStatus].sort(([a], [b]) => a - b).map(([status, keys]) => [status, [...keys]]));
}
