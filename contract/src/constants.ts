/** Business constants shared by server, web and admin (spec section 9, docs/design.md "Product rules"). */
export const REQUEST_TIMEOUT_MS = 300_000;
export const OTP_RESEND_SECONDS = 60;
export const REBIND_CODE_SECONDS = 10;
export const OTP_LENGTH = 6;
export const OTP_TTL_SECONDS = 600;
export const OTP_MAX_TRIES = 5;
/** Spec: verification codes are sent with type 1. */
export const OTP_TYPE = 1;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 20;
export const PHONE_COUNTRY_CODE = '91';
export const TOAST_MS = 3000;
export const DIALOG_WIDTH_PX = 320;
export const PAIRING_CODE_LENGTH = 8;
export const INVITE_CODE_LENGTH = 8;
/** Invite codes avoid look-alike characters (no 0/O/1/I). */
export const INVITE_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const SESSION_TTL_DAYS = 30;
export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** The business day (dashboard "today", date-only filters) is India's; it has no daylight saving. */
export const BUSINESS_TIME_ZONE = 'Asia/Kolkata';
export const BUSINESS_UTC_OFFSET = '+05:30';
export const BUSINESS_UTC_OFFSET_MINUTES = 330;

/** Home's sections, in the order Home shows them (spec section 2). */
export const TASK_SECTIONS = ['hot', 'latest', 'newbie', 'limited', 'friends'] as const;
export type TaskSection = (typeof TASK_SECTIONS)[number];
/** The fixed system tasks: 2 register, 3 survey, 4 introduction, 5 invite 1, 6 first withdrawal, 7-10 invite 1-4. */
export const SYSTEM_TASK_IDS = { register: 2, survey: 3, intro: 4, inviteOne: 5, firstWithdrawal: 6 } as const;

/**
 * Login lockout (docs/decisions/login-throttling.md). Failures of one account from one address
 * lock that pair for a short while: an attacker elsewhere cannot lock the owner out. The account
 * alone locks only at a much higher count, the cap on guesses from many addresses (ASVS 2.2.1: at
 * most 100 failed attempts an hour on one account). Each attempt is reserved before its password is
 * checked, so these are also the most passwords ever checked per window, however many arrive at once.
 */
export const LOGIN_FAILURES_PER_ACCOUNT_ADDRESS = 10;
export const LOGIN_ADDRESS_LOCK_MINUTES = 15;
export const LOGIN_FAILURES_PER_ACCOUNT = 100;
export const LOGIN_ACCOUNT_LOCK_MINUTES = 60;

/** The header the web app sends its device id in (one per browser, kept in localStorage; fraud signals). */
export const DEVICE_ID_HEADER = 'x-device-id';

/** The longest text an amount or rate field takes ("1000000000.00" with spaces to spare). */
export const AMOUNT_TEXT_MAX = 20;

/** The movements that count as earnings (money in that is not a refund): the income chart and the console's earned figure. */
export const EARNING_TYPES = ['task_reward', 'rebate', 'linked_income', 'manual_credit'] as const;
export type EarningType = (typeof EARNING_TYPES)[number];
/** The ranges the income chart offers, in India's calendar days, today included. */
export const INCOME_DAY_RANGES = [7, 30] as const;
/** The most inbox items one `notice/seen` marks read: a list page's worth. */
export const NOTICE_SEEN_MAX = 50;

/** The channels a one-time code can go to; a service offers those of its SIGNUP_CHANNELS (docs/operations.md). */
export const OTP_CHANNELS = ['sms', 'email'] as const;
export type OtpChannel = (typeof OTP_CHANNELS)[number];
/** The channel of a normalised target: an e-mail address has an `@`, a phone number (91XXXXXXXXXX) none. */
export function channelOfTarget(target: string): OtpChannel {
  return target.includes('@') ? 'email' : 'sms';
}

/**
 * The longest value of one variable (`{#var#}`) in a DLT-registered SMS template, in characters: TRAI's
 * DLT platforms cap a variable at 30, and operators reject an SMS whose variable is longer
 * (docs/decisions/msg91-dlt-limits.md).
 */
export const DLT_VARIABLE_MAX = 30;
/**
 * The variables (`var1` … `var5`) of the DLT template registered for operator messages
 * (MSG91_MESSAGE_TEMPLATE_ID): a message is cut into that many pieces of at most DLT_VARIABLE_MAX characters.
 */
export const SMS_MESSAGE_VARIABLES = 5;
/** The longest operator SMS, in characters (Unicode code points): every piece within the DLT cap. */
export const SMS_MESSAGE_MAX = DLT_VARIABLE_MAX * SMS_MESSAGE_VARIABLES;

/** How long a rebate stays pending after the task reward it is owed on (the `rebate` setting's `holdDays` default). */
export const REBATE_HOLD_DAYS_DEFAULT = 7;
/** The longest hold an operator may set. */
export const REBATE_HOLD_DAYS_MAX = 90;
/** A rebate's states: `pending` in its hold, then `available` (in the wallet) or `reversed`. */
export const REBATE_STATES = ['pending', 'available', 'reversed'] as const;
export type RebateState = (typeof REBATE_STATES)[number];

/**
 * Grievances (IT Rules 2021, rule 3(2); DPDP Act 2023, s. 13; docs/decisions/grievances.md): a complaint
 * is acknowledged within 24 hours and resolved within 15 days of being raised.
 */
export const COMPLAINT_ACK_HOURS = 24;
export const COMPLAINT_RESOLVE_DAYS = 15;
/** What a user writes when raising one, and what an operator writes in a reply or when closing it. */
export const COMPLAINT_TEXT_MAX = 2000;
export const COMPLAINT_REPLY_MAX = 2000;
/** Complaints one user may have open at once: the sixth waits until one is closed. */
export const COMPLAINTS_OPEN_MAX = 5;
/** What a complaint can be about; raised from a withdrawal, a reward or a payout account it is preset. */
export const COMPLAINT_CATEGORIES = ['withdrawal', 'reward', 'payout_account', 'privacy', 'other'] as const;
export type ComplaintCategory = (typeof COMPLAINT_CATEGORIES)[number];
/** The object a complaint points to: one of the user's withdrawals, wallet entries or payout accounts. */
export const COMPLAINT_SUBJECTS = ['withdrawal', 'entry', 'payout_account'] as const;
export type ComplaintSubjectKind = (typeof COMPLAINT_SUBJECTS)[number];
export const COMPLAINT_STATES = ['open', 'acknowledged', 'closed'] as const;
export type ComplaintState = (typeof COMPLAINT_STATES)[number];
/** How a closed complaint ended: in the user's favour, not upheld, or otherwise (the closing text says how). */
export const COMPLAINT_OUTCOMES = ['upheld', 'not_upheld', 'other'] as const;
export type ComplaintOutcome = (typeof COMPLAINT_OUTCOMES)[number];
export const COMPLAINT_EVENT_KINDS = ['raised', 'acknowledged', 'reply', 'closed'] as const;
export type ComplaintEventKind = (typeof COMPLAINT_EVENT_KINDS)[number];

/** A complaint's number as users and operators quote it: `KM-000123`. */
export function complaintNumber(id: number): string {
  return `KM-${String(id).padStart(6, '0')}`;
}
