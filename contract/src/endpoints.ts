import { ADMIN, COMMON, type EndpointDef, USER, WS } from './route-def';

/**
 * Where each route lives: method, path, and the kind of a non-JSON answer. The one source of these
 * facts: every entry of `routes` spreads its endpoint (and adds policy, roles, schemas, texts), and
 * the API client reads only this table (`@kamai/contract/endpoints`), so a page that calls the API
 * loads neither zod nor any schema.
 */
export const endpoints = {
  // added with task proofs, withdrawal cancel, account pages and deletion
  taskProofUpload: {
    method: 'POST',
    path: `${USER}/task/proof/upload`,
  },
  taskProofSubmit: {
    method: 'POST',
    path: `${USER}/task/proof/submit`,
  },
  adminTaskProofList: {
    method: 'GET',
    path: `${ADMIN}/task/proof/list`,
  },
  adminTaskProofReview: {
    method: 'POST',
    path: `${ADMIN}/task/proof/review`,
  },
  adminTaskRewardReverse: {
    method: 'POST',
    path: `${ADMIN}/task/reward/reverse`,
  },
  withdrawCancel: {
    method: 'POST',
    path: `${USER}/withdraw/cancel`,
  },
  pageDetail: {
    method: 'GET',
    path: `${COMMON}/page/detail`,
  },
  accountDelete: {
    method: 'POST',
    path: `${USER}/account/delete`,
  },
  accountExport: {
    method: 'GET',
    path: `${USER}/account/export`,
  },
  adminPageGet: {
    method: 'GET',
    path: `${ADMIN}/page/get`,
  },
  adminPageSet: {
    method: 'POST',
    path: `${ADMIN}/page/set`,
  },
  // added with SMS, credits, RazorpayX, push
  objOtpSms: {
    method: 'POST',
    path: '/obj/otp/sms',
  },
  objOtpEmail: {
    method: 'POST',
    path: '/obj/otp/email',
  },
  adminOtpDeliveries: {
    method: 'GET',
    path: `${ADMIN}/otp/deliveries`,
  },
  smsReportMsg91: {
    method: 'POST',
    path: `${COMMON}/sms/report/msg91`,
  },
  smsReportTwilio: {
    method: 'POST',
    path: `${COMMON}/sms/report/twilio`,
  },
  adminCreditRequestList: {
    method: 'GET',
    path: `${ADMIN}/revenue/requests`,
  },
  adminCreditReview: {
    method: 'POST',
    path: `${ADMIN}/revenue/review`,
  },
  payNotifyRazorpayx: {
    method: 'POST',
    path: `${COMMON}/pay/notify/razorpayx`,
  },
  adminPayoutMismatches: {
    method: 'GET',
    path: `${ADMIN}/payout/mismatches`,
  },
  adminPayoutMismatchResolve: {
    method: 'POST',
    path: `${ADMIN}/payout/mismatch/resolve`,
  },
  adminUnclaimedList: {
    method: 'GET',
    path: `${ADMIN}/withdraw/unclaimed`,
  },
  adminUnclaimedHandle: {
    method: 'POST',
    path: `${ADMIN}/withdraw/unclaimed/handle`,
  },
  adminPayoutReconciliation: {
    method: 'GET',
    path: `${ADMIN}/payout/reconciliation`,
  },
  adminPayoutReconciliationRun: {
    method: 'POST',
    path: `${ADMIN}/payout/reconciliation/run`,
  },
  pushKey: {
    method: 'GET',
    path: `${COMMON}/push/key`,
  },
  pushSubscribe: {
    method: 'POST',
    path: `${USER}/push/subscribe`,
  },
  pushUnsubscribe: {
    method: 'POST',
    path: `${USER}/push/unsubscribe`,
  },
  // admin
  adminUserList: {
    method: 'GET',
    path: `${ADMIN}/user/list`,
  },
  adminUserDetail: {
    method: 'GET',
    path: `${ADMIN}/user/detail`,
  },
  adminUserFreeze: {
    method: 'POST',
    path: `${ADMIN}/user/freeze`,
  },
  adminUserRole: {
    method: 'POST',
    path: `${ADMIN}/user/role`,
  },
  adminUserResetPassword: {
    method: 'POST',
    path: `${ADMIN}/user/resetpass`,
  },
  // dual control
  adminControlList: {
    method: 'GET',
    path: `${ADMIN}/control/list`,
  },
  adminControlApply: {
    method: 'POST',
    path: `${ADMIN}/control/apply`,
  },
  adminControlCancel: {
    method: 'POST',
    path: `${ADMIN}/control/cancel`,
  },
  adminDashboard: {
    method: 'GET',
    path: `${ADMIN}/dashboard`,
  },
  adminDashboardTrends: {
    method: 'GET',
    path: `${ADMIN}/dashboard/trends`,
  },
  adminQueueCounts: {
    method: 'GET',
    path: `${ADMIN}/queue/counts`,
  },
  adminExportUsers: {
    method: 'GET',
    path: `${ADMIN}/export/users.csv`,
    produces: 'text/csv',
  },
  adminExportMovements: {
    method: 'GET',
    path: `${ADMIN}/export/movements.csv`,
    produces: 'text/csv',
  },
  adminExportWithdrawals: {
    method: 'GET',
    path: `${ADMIN}/export/withdrawals.csv`,
    produces: 'text/csv',
  },
  // audit
  adminAuditList: {
    method: 'GET',
    path: `${ADMIN}/audit/list`,
  },
  // linked-accounts
  linkedGenPhoneCode: {
    method: 'POST',
    path: `${WS}/login/genPhoneCode`,
  },
  linkedGetQrCode: {
    method: 'POST',
    path: `${WS}/login/getQRCode`,
  },
  linkedQrStatus: {
    method: 'GET',
    path: `${WS}/login/qr-status`,
  },
  linkedLogout: {
    method: 'PUT',
    path: `${WS}/logout`,
  },
  linkedPage: {
    method: 'GET',
    path: `${WS}/page`,
  },
  linkedLogList: {
    method: 'GET',
    path: `${WS}/log/list`,
  },
  linkedSettlement: {
    method: 'PUT',
    path: `${WS}/settlement/:phone`,
  },
  linkedIsBound: {
    method: 'GET',
    path: `${WS}/:phone/is-bound`,
  },
  adminWsList: {
    method: 'GET',
    path: `${ADMIN}/ws/list`,
  },
  adminWsLog: {
    method: 'GET',
    path: `${ADMIN}/ws/log`,
  },
  adminWsComplete: {
    method: 'POST',
    path: `${ADMIN}/ws/complete`,
  },
  adminWsStatus: {
    method: 'POST',
    path: `${ADMIN}/ws/status`,
  },
  adminWsRateGet: {
    method: 'GET',
    path: `${ADMIN}/ws/rate/get`,
  },
  adminWsRateSet: {
    method: 'POST',
    path: `${ADMIN}/ws/rate/set`,
  },
  // notices
  noticeList: {
    method: 'GET',
    path: `${COMMON}/notice/list`,
  },
  noticeDetail: {
    method: 'GET',
    path: `${COMMON}/notice/detail`,
  },
  noticeUnread: {
    method: 'GET',
    path: `${USER}/notice/unread`,
  },
  noticeSeen: {
    method: 'POST',
    path: `${USER}/notice/seen`,
  },
  adminNoticeAdd: {
    method: 'POST',
    path: `${ADMIN}/notice/add`,
  },
  adminNoticeEdit: {
    method: 'POST',
    path: `${ADMIN}/notice/edit`,
  },
  adminNoticeDelete: {
    method: 'POST',
    path: `${ADMIN}/notice/delete`,
  },
  adminNoticeDetail: {
    method: 'GET',
    path: `${ADMIN}/notice/detail`,
  },
  adminNoticeList: {
    method: 'GET',
    path: `${ADMIN}/notice/list`,
  },
  // payout-accounts
  wdaccountBind: {
    method: 'POST',
    path: `${USER}/wdaccount/bind`,
  },
  wdaccountEdit: {
    method: 'POST',
    path: `${USER}/wdaccount/edit`,
  },
  wdaccountDelete: {
    method: 'POST',
    path: `${USER}/wdaccount/delete`,
  },
  wdaccountList: {
    method: 'GET',
    path: `${USER}/wdaccount/list`,
  },
  // payouts
  payNotifyMasterpay: {
    method: 'GET',
    path: `${COMMON}/pay/notify/masterpay`,
  },
  // referrals
  inviteList: {
    method: 'GET',
    path: `${USER}/invite/list`,
  },
  adminRebateGet: {
    method: 'GET',
    path: `${ADMIN}/rebate/get`,
  },
  adminRebateSet: {
    method: 'POST',
    path: `${ADMIN}/rebate/set`,
  },
  adminUserDuplicate: {
    method: 'POST',
    path: `${ADMIN}/user/duplicate`,
  },
  // revenue
  adminCreditAdd: {
    method: 'POST',
    path: `${ADMIN}/revenue/add`,
  },
  adminBalanceList: {
    method: 'GET',
    path: `${ADMIN}/balance/list`,
  },
  adminIntroGet: {
    method: 'GET',
    path: `${ADMIN}/intro/get`,
  },
  adminIntroSet: {
    method: 'POST',
    path: `${ADMIN}/intro/set`,
  },
  // routes
  liveness: {
    method: 'GET',
    path: '/obj/test/t1',
  },
  readiness: {
    method: 'GET',
    path: '/obj/test/t2',
  },
  otpSend: {
    method: 'POST',
    path: `${COMMON}/otp/send`,
  },
  otpChannels: {
    method: 'GET',
    path: `${COMMON}/otp/channels`,
  },
  register: {
    method: 'POST',
    path: `${COMMON}/user/register`,
  },
  login: {
    method: 'POST',
    path: `${COMMON}/user/login`,
  },
  resetPassword: {
    method: 'POST',
    path: `${COMMON}/user/resetpass`,
  },
  editPassword: {
    method: 'POST',
    path: `${USER}/edit/password`,
  },
  logout: {
    method: 'POST',
    path: `${USER}/user/logout`,
  },
  userDetail: {
    method: 'GET',
    path: `${USER}/user/detail`,
  },
  adminOtpOutbox: {
    method: 'GET',
    path: `${ADMIN}/otp/outbox`,
  },
  balanceList: {
    method: 'GET',
    path: `${USER}/balance/list`,
  },
  incomeDaily: {
    method: 'GET',
    path: `${USER}/balance/daily`,
  },
  adminLedgerCheck: {
    method: 'GET',
    path: `${ADMIN}/ledger/check`,
  },
  // survey
  surveySubmit: {
    method: 'POST',
    path: `${USER}/survey/submit`,
  },
  surveyDetail: {
    method: 'GET',
    path: `${USER}/survey/detail`,
  },
  introDetail: {
    method: 'GET',
    path: `${COMMON}/intro/detail`,
  },
  introProgress: {
    method: 'POST',
    path: `${USER}/intro/progress`,
  },
  // tasks
  taskList: {
    method: 'GET',
    path: `${USER}/task/list`,
  },
  taskFinish: {
    method: 'POST',
    path: `${USER}/task/finish`,
  },
  adminTaskAdd: {
    method: 'POST',
    path: `${ADMIN}/task/add`,
  },
  adminTaskEdit: {
    method: 'POST',
    path: `${ADMIN}/task/edit`,
  },
  adminTaskDelete: {
    method: 'POST',
    path: `${ADMIN}/task/delete`,
  },
  adminTaskDetail: {
    method: 'GET',
    path: `${ADMIN}/task/detail`,
  },
  adminTaskList: {
    method: 'GET',
    path: `${ADMIN}/task/list`,
  },
  // uploads
  adminToolUpload: {
    method: 'POST',
    path: `${ADMIN}/tool/upload`,
  },
  // withdrawals
  withdrawAdd: {
    method: 'POST',
    path: `${USER}/withdraw/add`,
  },
  withdrawList: {
    method: 'GET',
    path: `${USER}/withdraw/list`,
  },
  withdrawLimits: {
    method: 'GET',
    path: `${USER}/withdraw/limits`,
  },
  adminWithdrawList: {
    method: 'GET',
    path: `${ADMIN}/withdraw/list`,
  },
  adminWithdrawReview: {
    method: 'POST',
    path: `${ADMIN}/withdraw/review`,
  },
  adminSettingsGet: {
    method: 'GET',
    path: `${ADMIN}/settings/get`,
  },
  adminSettingsSet: {
    method: 'POST',
    path: `${ADMIN}/settings/set`,
  },
  // payout account checks by operators
  adminAccountChecks: {
    method: 'GET',
    path: `${ADMIN}/account-check/list`,
  },
  adminAccountCheckDecide: {
    method: 'POST',
    path: `${ADMIN}/account-check/decide`,
  },
  // complaints (grievances)
  complaintAdd: { method: 'POST', path: `${USER}/complaint/add` },
  complaintList: { method: 'GET', path: `${USER}/complaint/list` },
  complaintDetail: { method: 'GET', path: `${USER}/complaint/detail` },
  adminComplaintList: { method: 'GET', path: `${ADMIN}/complaint/list` },
  adminComplaintSummary: { method: 'GET', path: `${ADMIN}/complaint/summary` },
  adminComplaintAcknowledge: { method: 'POST', path: `${ADMIN}/complaint/acknowledge` },
  adminComplaintReply: { method: 'POST', path: `${ADMIN}/complaint/reply` },
  adminComplaintClose: { method: 'POST', path: `${ADMIN}/complaint/close` },
} as const satisfies Record<string, EndpointDef>;

export type EndpointName = keyof typeof endpoints;
