import { type MessageKey, statusOf } from './catalogue';
import type { RouteDef } from './route-def';
import type { RouteName } from './routes';
import { BIDI_REFUSING } from './validation';

/**
 * The catalogue keys a route answers besides the ones its shape implies (see `errorResponsesOf`): field
 * messages of its body or query and the domain refusals of its handler. The OpenAPI document lists them
 * per status; keep a route's list next to a new `AppError` its handler throws.
 */
export const ROUTE_ERRORS: { readonly [N in RouteName]?: readonly MessageKey[] } = {
  otpSend: [
    'enter_phone_or_email',
    'target_invalid',
    'email_plain_address_only',
    'otp_type_invalid',
    'invalid_phone_number_format',
    'enter_valid_email',
    'otp_resend_wait',
    'otp_rate_limited',
    'otp_sms_disabled',
    'otp_email_disabled',
  ],
  register: [
    'enter_phone_or_email',
    'target_invalid',
    'email_plain_address_only',
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
    'confirm_your_password',
    'enter_valid_email',
    'password_too_common',
    'phone_format_wrong',
    'too_many_requests',
  ],
  login: ['enter_phone_or_email', 'enter_password', 'incorrect_username_or_password', 'login_locked', 'account_frozen'],
  resetPassword: [
    'enter_phone_or_email',
    'email_plain_address_only',
    'enter_valid_email',
    'enter_password',
    'password_length',
    'passwords_do_not_match',
    'enter_verification_code',
    'verification_code_format',
    'verification_code_not_found',
    'verification_code_incorrect',
    'username_does_not_exist',
    'password_too_common',
    'phone_format_wrong',
    'too_many_requests',
    'enter_new_password',
    'target_invalid',
    'confirm_your_password',
  ],
  editPassword: [
    'enter_old_password',
    'enter_new_password',
    'password_length',
    'passwords_do_not_match',
    'incorrect_old_password',
    'confirm_your_password',
    'password_too_common',
  ],
  readiness: [],
  objOtpSms: [
    'enter_phone_number',
    'invalid_phone_number_format',
    'sms_message_too_long',
    'otp_resend_wait',
    'otp_rate_limited',
    'too_many_requests',
  ],
  objOtpEmail: ['enter_valid_email', 'otp_resend_wait', 'otp_rate_limited', 'too_many_requests'],
  smsReportMsg91: ['unauthorized', 'forbidden', 'route_not_found'],
  smsReportTwilio: ['unauthorized', 'route_not_found'],
  taskFinish: [
    'task_not_found',
    'task_condition_unmet',
    'task_already_claimed',
    'task_not_active',
    'task_proof_required',
    'task_under_review',
    'staff_earn_nothing',
  ],
  adminTaskAdd: [
    'task_title_required',
    'invalid_amount',
    'task_condition_required',
    'task_verification_required',
    'task_proof_link_invalid',
  ],
  adminTaskEdit: [
    'task_title_required',
    'task_proof_link_invalid',
    'task_not_found',
    'system_task_locked',
    'invalid_amount',
    'task_verification_required',
  ],
  adminTaskDelete: ['task_not_found', 'system_task_locked'],
  adminTaskDetail: ['task_not_found'],
  surveySubmit: ['survey_answer_required', 'survey_already_submitted'],
  adminRebateSet: ['rebate_bps_range', 'rebate_hold_days_range'],
  adminUserDuplicate: ['enter_resolve_reason', 'user_not_found'],
  adminTaskRewardReverse: [
    'enter_resolve_reason',
    'task_reward_not_found',
    'task_reward_reversed_already',
    'insufficient_balance',
  ],
  adminRevenueAdd: [
    'invalid_amount',
    'enter_remark',
    'user_not_found',
    'cannot_credit_self',
    'idempotency_key_invalid',
    'idempotency_key_reused',
    'account_deleted_final',
  ],
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
  linkedLogout: ['linked_account_not_found', 'enter_phone_number', 'invalid_phone_number_format'],
  linkedSettlement: [
    'linked_account_not_found',
    'linked_settle_wait',
    'linked_nothing_to_settle',
    'enter_phone_number',
    'invalid_phone_number_format',
  ],
  adminWsComplete: [
    'linked_account_not_found',
    'enter_phone_number',
    'invalid_phone_number_format',
    'pairing_not_found',
    'phone_linked_elsewhere',
    'cannot_change_own_linked_account',
  ],
  adminWsStatus: [
    'linked_account_not_found',
    'linked_status_invalid',
    'cannot_change_own_linked_account',
    'enter_phone_number',
    'invalid_phone_number_format',
  ],
  adminWsRateSet: ['linked_rate_range'],
  noticeDetail: ['notice_not_found'],
  adminNoticeAdd: ['enter_notice_title', 'enter_notice_body', 'notice_image_own_uploads'],
  adminNoticeEdit: ['enter_notice_title', 'enter_notice_body', 'notice_not_found', 'notice_image_own_uploads'],
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
  adminUserFreeze: ['user_not_found', 'cannot_change_own_account', 'account_deleted_final'],
  adminUserRole: ['user_not_found', 'cannot_change_own_account', 'account_deleted_final'],
  adminControlApply: [
    'control_change_not_found',
    'control_change_decided',
    'control_change_expired',
    'control_change_stale',
    'control_second_admin_required',
    'control_delay_pending',
    'control_change_about_self',
    'control_promoted_by_proposer',
    'user_not_found',
    'account_deleted_final',
  ],
  adminControlCancel: ['control_change_not_found', 'control_change_decided'],
  adminUserResetPassword: [
    'user_not_found',
    'account_deleted_final',
    'password_length',
    'cannot_change_own_account',
    'enter_new_password',
    'password_too_common',
    'staff_password_by_code',
  ],
  wdaccountBind: [
    'payout_account_validation_limit',
    'enter_upi_id',
    'invalid_upi_id',
    'enter_account_number',
    'invalid_account_number',
    'enter_recipient_name',
    'invalid_recipient_name',
    'enter_ifsc',
    'invalid_ifsc',
    'payout_account_limit',
    'recipient_name_length',
    'recipient_name_first',
    'recipient_name_last',
  ],
  wdaccountEdit: [
    'payout_account_validation_limit',
    'enter_upi_id',
    'invalid_upi_id',
    'invalid_account_number',
    'invalid_recipient_name',
    'invalid_ifsc',
    'payout_account_not_found',
    'payout_account_in_use',
    'enter_ifsc',
    'enter_recipient_name',
    'recipient_name_length',
    'recipient_name_first',
    'recipient_name_last',
  ],
  wdaccountDelete: ['payout_account_not_found', 'payout_account_in_use'],
  withdrawAdd: [
    'payout_account_unverified',
    'payout_account_name_rebind',
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
    'second_approver_required',
  ],
  adminSettingsSet: [
    'withdrawal_limits_invalid',
    'invalid_amount',
    'withdrawal_fee_too_high',
    'account_check_limit_range',
    'account_check_fee_range',
    'name_match_min_range',
  ],
  payNotifyMasterpay: [
    'payout_bad_signature',
    'payout_stale_timestamp',
    'payout_unknown_order',
    'payout_amount_mismatch',
    'payout_order_not_dispatched',
  ],
  accountDelete: ['account_delete_withdrawal_open', 'enter_password', 'incorrect_password'],
  accountExport: ['too_many_requests'],
  adminCreditReview: [
    'cannot_credit_self',
    'account_deleted_final',
    'credit_request_decided',
    'credit_request_not_found',
    'enter_reject_reason',
    'second_approver_required',
    'idempotency_key_invalid',
    'idempotency_key_reused',
  ],
  adminIntroSet: ['intro_video_seconds_required'],
  adminOtpOutbox: ['route_not_found'],
  adminPageGet: ['page_not_found'],
  adminPageSet: ['enter_valid_email', 'page_not_found', 'page_title_required'],
  adminPayoutMismatchResolve: [
    'cannot_resolve_own_mismatch',
    'enter_resolve_reason',
    'payout_mismatch_not_found',
    'payout_mismatch_not_recoverable',
    'payout_mismatch_recovery_short',
    'payout_mismatch_resolved_already',
    'idempotency_key_invalid',
    'idempotency_key_reused',
  ],
  adminUnclaimedHandle: ['enter_unclaimed_note', 'unclaimed_not_found', 'unclaimed_handled_already'],
  adminPayoutReconciliationRun: [
    'payout_reconciliation_unavailable',
    'payout_reconciliation_future_day',
    'idempotency_key_invalid',
    'idempotency_key_reused',
  ],
  adminTaskProofReview: [
    'account_deleted_final',
    'cannot_review_own_proof',
    'enter_reject_reason',
    'task_proof_not_found',
    'task_proof_state_conflict',
    'idempotency_key_invalid',
    'idempotency_key_reused',
    'staff_earn_nothing',
  ],
  adminWsList: ['invalid_phone_number_format', 'linked_status_invalid', 'enter_phone_number'],
  adminWsLog: ['enter_phone_number', 'invalid_phone_number_format', 'linked_account_not_found'],
  introProgress: ['intro_no_video'],
  linkedIsBound: ['enter_phone_number', 'invalid_phone_number_format', 'linked_account_not_found'],
  linkedLogList: ['enter_phone_number', 'invalid_phone_number_format', 'linked_account_not_found'],
  pageDetail: ['page_not_found'],
  payNotifyRazorpayx: ['payout_bad_signature'],
  pushSubscribe: ['push_endpoint_not_allowed'],
  taskProofSubmit: [
    'task_not_found',
    'task_not_proof',
    'task_proof_image_invalid',
    'task_proof_link_invalid',
    'task_proof_missing',
    'task_proof_screenshot_required',
    'task_under_review',
  ],
  taskProofUpload: [
    'upload_dimensions',
    'upload_file_missing',
    'upload_image_unreadable',
    'upload_too_large',
    'upload_type_mismatch',
    'upload_type_unsupported',
    'too_many_requests',
  ],
  withdrawCancel: ['withdrawal_not_found', 'withdrawal_state_conflict'],
  adminAccountCheckDecide: [
    'account_check_not_found',
    'account_check_decided_already',
    'account_check_reason_required',
    'cannot_review_own_account',
    'second_approver_required',
  ],
  complaintAdd: [
    'complaint_category_required',
    'enter_complaint_text',
    'complaint_text_too_long',
    'complaint_subject_not_found',
    'complaints_open_limit',
  ],
  complaintDetail: ['complaint_not_found'],
  adminComplaintAcknowledge: ['complaint_not_found', 'complaint_already_closed', 'complaint_acknowledged_already'],
  adminComplaintReply: [
    'complaint_not_found',
    'complaint_already_closed',
    'enter_complaint_reply',
    'complaint_text_too_long',
  ],
  adminComplaintClose: [
    'complaint_not_found',
    'complaint_already_closed',
    'enter_complaint_reply',
    'complaint_text_too_long',
    'complaint_outcome_required',
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
  // Any method that can carry a body: Fastify parses one even where the route takes none.
  const carriesBody = def.method !== 'GET';
  if (def.body || carriesBody) add('malformed_json');
  if (def.policy !== 'public') {
    add('unauthorized');
    add('account_frozen');
  }
  if (def.policy === 'admin') add('forbidden');
  if (def.body || def.multipart || carriesBody) {
    add('payload_too_large');
    add('unsupported_media_type');
  }
  if (def.body && BIDI_REFUSING.has(def.body)) add('text_bidi_control');
  for (const key of ROUTE_ERRORS[name] ?? []) add(key);
  add('internal_error');
  add('service_unavailable');
  return new Map([...byStatus].sort(([a], [b]) => a - b).map(([status, keys]) => [status, [...keys]]));
}
