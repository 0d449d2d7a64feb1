import type {
  ComplaintCategory,
  ComplaintEventKind,
  ComplaintOutcome,
  ComplaintState,
  ComplaintSubjectKind,
  ControlChangeKind,
  ControlChangeState,
  CreditRequestState,
  LinkedEventKind,
  LinkedStatus,
  LocaleTexts,
  PayoutAccountType,
  PayoutGatewayName,
  PostingRef,
  PostingType,
  RebateState,
  RiskReasonKey,
  StoredTaskVerification,
  SurveyAnswers,
  TaskKind,
  TaskProofState,
  TaskSection,
  WithdrawalState,
} from '@kamai/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** E-mail lower-cased or phone as 91XXXXXXXXXX. */
    username: text('username').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    inviteCode: text('invite_code').notNull().unique(),
    inviterId: bigint('inviter_id', { mode: 'number' }),
    role: text('role', { enum: ['user', 'reviewer', 'admin'] })
      .notNull()
      .default('user'),
    frozen: boolean('frozen').notNull().default(false),
    /** Set when the user deleted the account: the row stays (the ledger's anonymous owner), its personal data gone. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * The phone or e-mail was registered before (its keyed hash was in `identity_ledger`): the account
     * works, but it is no new qualified invitee and earns no first-time (system task) reward again.
     */
    returningIdentity: boolean('returning_identity').notNull().default(false),
    /**
     * The person behind the username (`canonicalIdentity`: no `+tag`, Gmail without dots): one live
     * account per identity (docs/decisions/canonical-identity.md). Null once the account is deleted.
     */
    canonicalIdentity: text('canonical_identity'),
    /**
     * Since when the account is staff (reviewer or admin); null for a user. Kept by the trigger
     * `users_staff_since` (migration 0023) whoever changes the role: rebates before it were a user's.
     */
    staffSince: timestamp('staff_since', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('users_inviter_idx').on(t.inviterId, t.id.desc()),
    index('users_created_idx').on(t.createdAt, t.id),
    index('users_canonical_identity_idx').on(t.canonicalIdentity),
  ],
);

/**
 * Every identity (normalised phone or e-mail) ever registered, as a keyed hash (HMAC-SHA256 with
 * `IDENTITY_HASH_SECRET`, which production keeps outside the database): kept after the account is deleted so that the same phone counts as
 * a friend once, ever (docs/decisions/account-deletion.md). The hash names no one
 * without the key.
 */
export const identityLedger = pgTable('identity_ledger', {
  hash: text('hash').primaryKey(),
  createdAt: createdAt(),
});

/** Opaque bearer tokens: only the SHA-256 of the token is stored (docs/design.md "API contract"). */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const otpCodes = pgTable(
  'otp_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    target: text('target').notNull(),
    /** The target's `canonicalIdentity`: the hourly limit counts codes per person, not per spelling. */
    identity: text('identity'),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    index('otp_codes_target_idx').on(t.target, t.createdAt),
    index('otp_codes_identity_idx').on(t.identity, t.createdAt),
  ],
);

/** What the sandbox sender "delivered"; operators read it in the console (docs/design.md "Scope"). */
export const otpOutbox = pgTable(
  'otp_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
    target: text('target').notNull(),
    code: text('code').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('otp_outbox_created_idx').on(t.createdAt)],
);

/**
 * One delivery attempt of a code or an operator message through one provider (docs/decisions/sms-delivery.md): a
 * failover
 * writes one row per provider tried. Never holds the code or the message text.
 */
export const otpDeliveries = pgTable(
  'otp_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
    kind: text('kind', { enum: ['code', 'message'] }).notNull(),
    target: text('target').notNull(),
    provider: text('provider', { enum: ['sandbox', 'smtp', 'msg91', 'twilio'] }).notNull(),
    status: text('status', { enum: ['sent', 'failed', 'delivered', 'undelivered'] }).notNull(),
    providerMessageId: text('provider_message_id'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('otp_deliveries_target_idx').on(t.target, t.id.desc()),
    index('otp_deliveries_message_idx').on(t.provider, t.providerMessageId),
    index('otp_deliveries_created_idx').on(t.createdAt),
  ],
);

/**
 * Login attempts counted per fixed window (docs/decisions/login-throttling.md): one row per (username,
 * address) for the short lock of that pair, and one per username with address `*` for the lock of the
 * account from anywhere. Keyed by the username as typed (normalised), known or not, so an unknown name
 * behaves like a known one. An attempt is reserved (counted) before its password is checked, in one
 * upsert that refuses when the window is full; a login that succeeds gives its reservation back.
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    username: text('username').notNull(),
    address: text('address').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    failures: integer('failures').notNull(),
  },
  (t) => [primaryKey({ columns: [t.username, t.address] }), index('login_attempts_window_idx').on(t.windowStart)],
);

/**
 * Ledger accounts (docs/design.md "Money rules"). A user's `wallet` (created with the user) and `hold` keep a cached
 * balance in integer paise, changed only by the ledger's `post()` after locking the row, never below
 * zero. Platform accounts (`platform_*`, no user) are seeded by the `ledger` migration and never
 * updated: their balance is the sum of their entries, so no posting waits on them.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    kind: text('kind').notNull(),
    balance: bigint('balance', { mode: 'bigint' }).notNull().default(sql`0`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('accounts_user_kind_idx').on(t.userId, t.kind),
    uniqueIndex('accounts_platform_kind_idx').on(t.kind).where(sql`${t.userId} is null`),
    check(
      'accounts_owner_kind',
      sql`(${t.userId} is not null and ${t.kind} in ('wallet', 'hold', 'rebate_pending')) or (${t.userId} is null and ${t.kind} in ('platform_rewards', 'platform_revenue', 'platform_payouts', 'platform_expenses', 'platform_unclaimed'))`,
    ),
    check('accounts_balance_nonnegative', sql`${t.userId} is null or ${t.balance} >= 0`),
  ],
);

/** One movement of money; `idempotency_key` names its cause, so a retry can never post twice. */
export const postings = pgTable('postings', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  type: text('type').$type<PostingType>().notNull(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  ref: jsonb('ref').$type<PostingRef>().notNull().default({}),
  createdAt: createdAt(),
});

/** Signed paise per account; the entries of a posting sum to zero. `balance_after` only on user accounts. */
export const entries = pgTable(
  'entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    postingId: bigint('posting_id', { mode: 'number' })
      .notNull()
      .references(() => postings.id),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'bigint' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('entries_account_idx').on(t.accountId, t.id.desc()),
    index('entries_posting_idx').on(t.postingId),
    // Date-range exports and "paid today" read entries in time order.
    index('entries_created_idx').on(t.createdAt, t.id),
  ],
);

/**
 * A rebate owed to an upline (`earner_id`, level 1 or 2) on an invitee's task reward (the posting
 * `source_posting_id`), docs/decisions/rebate-hold.md: posted at once into the earner's
 * `rebate_pending` account (`accrual_posting_id`), then after its hold (`available_at`) moved to the
 * wallet (`available`) or taken back (`reversed`, with `reason`); `settle_posting_id` is that posting.
 * One row per source reward and level.
 */
export const rebates = pgTable(
  'rebates',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    sourcePostingId: bigint('source_posting_id', { mode: 'number' })
      .notNull()
      .references(() => postings.id),
    inviteeId: bigint('invitee_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    earnerId: bigint('earner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    level: integer('level').notNull(),
    /** The rate in force when the reward was paid. */
    bps: integer('bps').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    state: text('state').$type<RebateState>().notNull().default('pending'),
    availableAt: timestamp('available_at', { withTimezone: true }).notNull(),
    accrualPostingId: bigint('accrual_posting_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => postings.id),
    settlePostingId: bigint('settle_posting_id', { mode: 'number' })
      .unique()
      .references(() => postings.id),
    /** Why it was reversed: `source_reversed`, `duplicate_identity`, `earner_staff`, `earner_deleted`. */
    reason: text('reason'),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('rebates_source_level_idx').on(t.sourcePostingId, t.level),
    index('rebates_due_idx').on(t.availableAt, t.id).where(sql`${t.state} = 'pending'`),
    index('rebates_earner_idx').on(t.earnerId, t.inviteeId),
    index('rebates_invitee_idx').on(t.inviteeId),
    check('rebates_level', sql`${t.level} in (1, 2)`),
    check('rebates_amount_positive', sql`${t.amount} > 0`),
    check('rebates_state', sql`${t.state} in ('pending', 'available', 'reversed')`),
  ],
);

/**
 * Tasks (docs/design.md "Product rules"). System tasks 2-10 have fixed ids and are seeded by the `tasks` migration;
 * operator tasks get ids from 101 up. Deleting is soft: completions and postings stay.
 */
export const tasks = pgTable(
  'tasks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    section: text('section').$type<TaskSection>().notNull(),
    kind: text('kind').$type<TaskKind>().notNull(),
    titles: jsonb('titles').$type<LocaleTexts>().notNull(),
    descriptions: jsonb('descriptions').$type<LocaleTexts>().notNull().default({}),
    /** Where the task is done (an http(s) address) per locale; English is the fallback. */
    links: jsonb('links').$type<LocaleTexts>().notNull().default({}),
    /** Paise. */
    reward: bigint('reward', { mode: 'bigint' }).notNull(),
    targetCount: integer('target_count').notNull().default(1),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    sort: integer('sort').notNull().default(0),
    active: boolean('active').notNull().default(true),
    system: boolean('system').notNull().default(false),
    /**
     * How completion is verified (docs/decisions/task-verification.md): an automatic condition or an operator-approved
     * proof.
     */
    verification: jsonb('verification')
      .$type<StoredTaskVerification>()
      .notNull()
      .default({ kind: 'proof', proof: 'either' }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [check('tasks_reward_positive', sql`${t.reward} > 0`)],
);

/**
 * Proof a user submitted for a proof task: a screenshot (an upload's URL) and/or a link. At most one
 * pending or approved proof per user and task; a rejected one can be followed by a new submission.
 */
export const taskProofs = pgTable(
  'task_proofs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    taskId: bigint('task_id', { mode: 'number' })
      .notNull()
      .references(() => tasks.id),
    state: text('state').$type<TaskProofState>().notNull().default('pending'),
    imageUrl: text('image_url'),
    link: text('link'),
    /** The operator's reason for a rejection. */
    reason: text('reason'),
    reviewerId: bigint('reviewer_id', { mode: 'number' }).references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('task_proofs_open_idx').on(t.userId, t.taskId).where(sql`${t.state} <> 'rejected'`),
    index('task_proofs_state_idx').on(t.state, t.id),
    index('task_proofs_user_idx').on(t.userId, t.taskId, t.id.desc()),
    check('task_proofs_state_known', sql`${t.state} in ('pending', 'approved', 'rejected')`),
  ],
);

/**
 * Who stored an upload and what for: `public` files (an operator's notice images, task
 * icons, videos) are served to anyone; `proof` files only by a signed URL given to their owner and to
 * staff, and only their owner may submit them as a proof. The file itself is content-addressed and
 * shared by equal uploads; a file with no row at all is an operator upload older than this table.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** `<sha256>.<ext>`, the stored file's name. */
    name: text('name').notNull(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    purpose: text('purpose', { enum: ['public', 'proof'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('uploads_name_owner_purpose_idx').on(t.name, t.ownerId, t.purpose),
    index('uploads_owner_idx').on(t.ownerId),
  ],
);

/** One row per task a user has been paid; the primary key makes a second payment impossible. */
export const taskCompletions = pgTable(
  'task_completions',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    taskId: bigint('task_id', { mode: 'number' })
      .notNull()
      .references(() => tasks.id),
    postingId: bigint('posting_id', { mode: 'number' })
      .notNull()
      .references(() => postings.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.taskId] }), index('task_completions_task_idx').on(t.taskId)],
);

export const surveyResponses = pgTable('survey_responses', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  answers: jsonb('answers').$type<SurveyAnswers>().notNull(),
  createdAt: createdAt(),
});

export const introViews = pgTable('intro_views', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  createdAt: createdAt(),
});

/**
 * How much of the introduction's video a user has played, as reported and capped by the server: never
 * more than the wall-clock time since `started_at` (the first report) nor the video's length.
 */
export const introWatches = pgTable('intro_watches', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  watchedSeconds: integer('watched_seconds').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Operator settings by key (`rebate`, `intro`), seeded by migration. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every admin write: who, what, when, before and after (docs/design.md "Product rules"). Append-only: the `admin`
 * migration's trigger refuses UPDATE, DELETE and TRUNCATE.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorId: bigint('actor_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    action: text('action').notNull(),
    target: text('target').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    /** The server's request id (what it answered as `x-request-id`). */
    requestId: text('request_id'),
    /** The `x-request-id` the client sent, kept apart: a client may send any id, or the same twice. */
    clientRequestId: text('client_request_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_actor_idx').on(t.actorId, t.id.desc()),
    index('audit_log_target_idx').on(t.target, t.id.desc()),
  ],
);

/**
 * A user's own in-app notifications (docs/design.md "Product rules"): withdrawal approved / rejected / paid / failed,
 * reward credited. `kind` picks the translated text on the client; `params` fills it (amounts as rupee
 * strings, reasons, ids). Shown in /List1 beside the system notices.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    params: jsonb('params').$type<Record<string, string | number | null>>().notNull().default({}),
    /** Makes a notification at most once per cause (e.g. `withdrawal:17:paid`). */
    dedupeKey: text('dedupe_key').notNull().unique(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_idx').on(t.userId, t.id.desc())],
);

/**
 * A messaging number linked to a user through the `LinkProvider` (docs/design.md "Scope"). A row exists once a
 * pairing completed; the number then stays with that user (unique `phone`). Online time is kept as
 * closed, unsettled seconds plus the open stretch since `online_since`, so settlement can pay exactly
 * the time since the last one.
 */
export const linkedAccounts = pgTable(
  'linked_accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** 91XXXXXXXXXX. */
    phone: text('phone').notNull().unique(),
    status: text('status').$type<LinkedStatus>().notNull(),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull(),
    /** Start of the current online stretch (or of its unsettled part), null when not online. */
    onlineSince: timestamp('online_since', { withTimezone: true }),
    /** Closed online time, all of it. */
    onlineSeconds: bigint('online_seconds', { mode: 'number' }).notNull().default(0),
    /** Closed online time not yet settled. */
    unsettledSeconds: bigint('unsettled_seconds', { mode: 'number' }).notNull().default(0),
    /** Paise credited by settlements so far. */
    earned: bigint('earned', { mode: 'bigint' }).notNull().default(sql`0`),
    lastSettledAt: timestamp('last_settled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('linked_accounts_user_idx').on(t.userId, t.id.desc()),
    index('linked_accounts_status_idx').on(t.status, t.id.desc()),
    check('linked_accounts_seconds_nonnegative', sql`${t.onlineSeconds} >= 0 and ${t.unsettledSeconds} >= 0`),
  ],
);

/** A pairing asked of the provider: a code for a number, or a QR payload any number may scan. */
export const linkedPairings = pgTable(
  'linked_pairings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    method: text('method', { enum: ['code', 'qr'] }).notNull(),
    /** The number a code was asked for, or the number that scanned a QR once completed. */
    phone: text('phone'),
    /** The provider's reference: the pairing code, or the QR pairing's id. */
    ref: text('ref').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('linked_pairings_phone_idx').on(t.phone, t.id.desc()),
    index('linked_pairings_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('linked_pairings_qr_ref_idx').on(t.ref).where(sql`${t.method} = 'qr'`),
  ],
);

/** Everything that happened to a linked number (its log, shown to the user). Append-only. */
export const linkedAccountEvents = pgTable(
  'linked_account_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => linkedAccounts.id),
    kind: text('kind').$type<LinkedEventKind>().notNull(),
    fromStatus: text('from_status').$type<LinkedStatus>(),
    toStatus: text('to_status').$type<LinkedStatus>(),
    actor: text('actor', { enum: ['user', 'operator', 'provider'] }).notNull(),
    method: text('method', { enum: ['code', 'qr'] }),
    seconds: bigint('seconds', { mode: 'number' }),
    /** Paise, for settlements. */
    amount: bigint('amount', { mode: 'bigint' }),
    createdAt: createdAt(),
  },
  (t) => [index('linked_account_events_account_idx').on(t.accountId, t.id.desc())],
);

/** Operators' notices (docs/design.md "Product rules"): users see published ones whose time has come. */
export const notices = pgTable(
  'notices',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** English, the text every reader without a translation sees. */
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** Translations by locale (never `en_US`); a missing one falls back to `title` / `body`. */
    titles: jsonb('titles').$type<LocaleTexts>().notNull().default({}),
    bodies: jsonb('bodies').$type<LocaleTexts>().notNull().default({}),
    imageUrl: text('image_url'),
    pinned: boolean('pinned').notNull().default(false),
    published: boolean('published').notNull().default(false),
    /** Set when first published (or scheduled); users see the notice from then on. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notices_visible_idx').on(t.pinned.desc(), t.publishedAt.desc(), t.id.desc()).where(sql`${t.published}`),
  ],
);

/** Which user opened which notice. */
export const noticeReads = pgTable(
  'notice_reads',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    noticeId: bigint('notice_id', { mode: 'number' })
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.noticeId] }), index('notice_reads_notice_idx').on(t.noticeId)],
);

/** A user's bank or UPI payout accounts (docs/design.md "Product rules"); at most one default per user. */
export const payoutAccounts = pgTable(
  'payout_accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    accountType: text('account_type').$type<PayoutAccountType>().notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    /** Upper-cased; empty for UPI. */
    ifsc: text('ifsc').notNull().default(''),
    /** Bank: digits. UPI: the UPI ID, lower-cased. */
    accountNo: text('account_no').notNull(),
    accountName: text('account_name').notNull(),
    /** The owner's check of this account's number; null before checks began. */
    validationId: bigint('validation_id', { mode: 'number' }).references(() => accountValidations.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payout_accounts_user_idx').on(t.userId),
    // The fraud signal "payout account saved by another user" looks accounts up by number.
    index('payout_accounts_account_no_idx').on(t.accountNo),
    uniqueIndex('payout_accounts_one_default_idx').on(t.userId).where(sql`${t.isDefault}`),
    check('payout_accounts_type', sql`${t.accountType} in ('upi', 'bank')`),
  ],
);

/**
 * One user's check of a bank account or UPI id with the bank (docs/decisions/payout-account-validation.md):
 * one row per owner (`requested_by`) and number (`fingerprint`), reused by that owner's own binds of the
 * number and never by another user's, who gets a check (and a fee) of their own. `pending` until the
 * gateway reports; `completed` with the bank's answer (`account_status` active or invalid, the registered
 * name); `failed` when the check itself could not be made (a later bind retries, as attempt + 1). When
 * the owner deletes the account the row keeps only `account_last4`, `number_hash`, the ids of the check
 * and its fee's reference (id and attempt); `erased_at` says so (docs/decisions/account-deletion.md).
 */
export const accountValidations = pgTable(
  'account_validations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** `bank:IFSC:number` or `upi::id`; null once erased. */
    fingerprint: text('fingerprint'),
    /**
     * A keyed hash (HMAC-SHA256 under the identity-hash key) of the fingerprint: the same number on
     * another user's check, live or erased, without the number itself. Null on checks made before it.
     */
    numberHash: text('number_hash'),
    /** A bank account's last four digits, kept when the rest is erased. */
    accountLast4: text('account_last4'),
    erasedAt: timestamp('erased_at', { withTimezone: true }),
    accountType: text('account_type').$type<PayoutAccountType>().notNull(),
    ifsc: text('ifsc').notNull(),
    accountNo: text('account_no').notNull(),
    /** The name typed by the user who started the check (sent as the fund account's name). */
    accountName: text('account_name').notNull(),
    /** The check's owner: the one user whose binds it answers. */
    requestedBy: bigint('requested_by', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    gateway: text('gateway').$type<PayoutGatewayName>().notNull(),
    status: text('status').$type<'pending' | 'completed' | 'failed'>().notNull().default('pending'),
    attempt: integer('attempt').notNull().default(1),
    /** RazorpayX `fav_...` (the sandbox's own id), once created. */
    gatewayValidationId: text('gateway_validation_id'),
    fundAccountId: text('fund_account_id'),
    /** `active` or `invalid` (completed only). */
    accountStatus: text('account_status'),
    registeredName: text('registered_name'),
    /** The registered name's words sorted (contract nameKey): equal for the same person's name. */
    registeredNameKey: text('registered_name_key'),
    /** The gateway's own name_match_score (0-100), where it returns one. */
    nameMatchScore: integer('name_match_score'),
    /** Why it is invalid or failed, in the gateway's words. */
    reason: text('reason'),
    /** The gateway's answer that settled it. */
    evidence: jsonb('evidence').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /**
     * An operator's check instead of the bank's (docs/decisions/account-checks-by-operators.md): `queued`
     * while it waits (status stays pending), then `approved` or `refused`; null: the bank's check only.
     */
    reviewState: text('review_state').$type<'queued' | 'approved' | 'refused'>(),
    /** Why it was queued: the check is `unavailable` (the gateway's answer), `disabled` (configuration) or `overdue`. */
    reviewCause: text('review_cause').$type<'unavailable' | 'disabled' | 'overdue'>(),
    reviewQueuedAt: timestamp('review_queued_at', { withTimezone: true }),
    /** The first of two approvals (above the four-eyes threshold). */
    firstApproverId: bigint('first_approver_id', { mode: 'number' }).references(() => users.id),
    reviewedBy: bigint('reviewed_by', { mode: 'number' }).references(() => users.id),
    /** A refusal's reason (an ACCOUNT_CHECK_REFUSALS code, read by the user in their language). */
    refusal: text('refusal'),
  },
  (t) => [
    uniqueIndex('account_validations_owner_fingerprint_idx').on(t.requestedBy, t.fingerprint),
    index('account_validations_number_hash_idx').on(t.numberHash),
    uniqueIndex('account_validations_gateway_id_idx').on(t.gatewayValidationId),
    index('account_validations_name_key_idx').on(t.registeredNameKey),
    check('account_validations_status', sql`${t.status} in ('pending', 'completed', 'failed')`),
    check(
      'account_validations_review_state',
      sql`${t.reviewState} is null or ${t.reviewState} in ('queued', 'approved', 'refused')`,
    ),
    /** The queue (oldest first) and the overdue sweep read pending checks by these. */
    index('account_validations_queue_idx').on(t.status, t.reviewState, t.createdAt),
  ],
);

/**
 * Which users looked an account up, and when: the per-day limit counts these (a user's own repeat of a
 * number is not a new one), so validation cannot be used to learn strangers' names in bulk.
 */
export const accountValidationLookups = pgTable(
  'account_validation_lookups',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    validationId: bigint('validation_id', { mode: 'number' })
      .notNull()
      .references(() => accountValidations.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_validation_lookups_user_validation_idx').on(t.userId, t.validationId),
    index('account_validation_lookups_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Withdrawal requests (docs/design.md "State machines"). The payout account is copied in when requested, so a later edit
 * or delete of the account cannot change where the money goes. `amount` is paise; while the state is
 * pending, approved or processing exactly this amount sits on the user's hold.
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    accountId: bigint('account_id', { mode: 'number' }).references(() => payoutAccounts.id, { onDelete: 'set null' }),
    accountType: text('account_type').$type<PayoutAccountType>().notNull(),
    ifsc: text('ifsc').notNull(),
    accountNo: text('account_no').notNull(),
    accountName: text('account_name').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** Paise taken from `amount` when paid (the fee setting when requested); the account receives the rest. */
    fee: bigint('fee', { mode: 'bigint' }).notNull().default(sql`0`),
    state: text('state').$type<WithdrawalState>().notNull().default('pending'),
    /** The rejection's or the failure's reason. */
    reason: text('reason'),
    /** The bank reference once paid. */
    reference: text('reference'),
    reviewerId: bigint('reviewer_id', { mode: 'number' }).references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** The last time the payout was handed to the gateway (reconciliation re-dispatches after a timeout). */
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    /**
     * The gateway that pays it, fixed at approval (PAYOUT_GATEWAY then): a later change of the setting
     * never moves a payout in flight. Null until approved.
     */
    gateway: text('gateway').$type<PayoutGatewayName>(),
    /** The gateway's own id of the payout (RazorpayX `pout_...`), once it told us. */
    gatewayPayoutId: text('gateway_payout_id'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Scored when requested (docs/decisions/fraud-signals.md): sum of the fired signals' weights. */
    riskScore: integer('risk_score').notNull().default(0),
    /** The fired signals' catalogue keys. */
    riskReasons: jsonb('risk_reasons').$type<RiskReasonKey[]>().notNull().default([]),
    /** 2 when the amount was above the second-approval threshold when requested. */
    approvalsRequired: integer('approvals_required').notNull().default(1),
    /** The first of two approvals; the second, by someone else, dispatches. */
    firstApproverId: bigint('first_approver_id', { mode: 'number' }).references(() => users.id),
    firstApprovedAt: timestamp('first_approved_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The payout's furthest status in the gateway's life cycle as Kamai learned it (RazorpayX's words;
     * masterpay's success is `processed`): reports that come before it change nothing
     * (docs/decisions/razorpayx-payouts.md).
     */
    gatewayStatus: text('gateway_status'),
    /**
     * What the payout was sent with, fixed at its first dispatch: RazorpayX `reference_id` and
     * `X-Payout-Idempotency`, the installation's prefix and a random part, so another installation on
     * the same account, or this one restored from an older backup, never sends the same ones.
     */
    payoutReference: text('payout_reference'),
    payoutIdempotencyKey: text('payout_idempotency_key'),
    payoutReferencedAt: timestamp('payout_referenced_at', { withTimezone: true }),
    /** RazorpayX's own fees and tax on the payout (paise, charged to the business account), as it reported them. */
    gatewayFees: bigint('gateway_fees', { mode: 'bigint' }),
    gatewayTax: bigint('gateway_tax', { mode: 'bigint' }),
  },
  (t) => [
    uniqueIndex('withdrawals_payout_reference_idx').on(t.payoutReference),
    index('withdrawals_payout_referenced_idx').on(t.payoutReferencedAt),
    index('withdrawals_risk_idx').on(t.riskScore, t.id),
    index('withdrawals_user_idx').on(t.userId, t.id.desc()),
    index('withdrawals_user_created_idx').on(t.userId, t.createdAt),
    index('withdrawals_created_idx').on(t.createdAt, t.id),
    index('withdrawals_state_idx').on(t.state, t.id),
    index('withdrawals_account_idx').on(t.accountId),
    uniqueIndex('withdrawals_gateway_payout_idx')
      .on(t.gateway, t.gatewayPayoutId)
      .where(sql`${t.gatewayPayoutId} is not null`),
    index('withdrawals_account_no_idx').on(t.accountNo),
    check('withdrawals_amount_positive', sql`${t.amount} > 0`),
    check('withdrawals_fee_below_amount', sql`${t.fee} >= 0 and ${t.fee} < ${t.amount}`),
    check(
      'withdrawals_state_known',
      sql`${t.state} in ('pending', 'approved', 'processing', 'paid', 'failed', 'rejected', 'cancelled', 'reversed')`,
    ),
  ],
);

/** Every state a withdrawal has been in, with its reason and who caused it (null: the gateway or the system). */
export const withdrawalHistory = pgTable(
  'withdrawal_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    withdrawalId: bigint('withdrawal_id', { mode: 'number' })
      .notNull()
      .references(() => withdrawals.id),
    fromState: text('from_state').$type<WithdrawalState>(),
    toState: text('to_state').$type<WithdrawalState>().notNull(),
    reason: text('reason'),
    actorId: bigint('actor_id', { mode: 'number' }).references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('withdrawal_history_withdrawal_idx').on(t.withdrawalId, t.id),
    // The dashboard's trends count the states entered per day.
    index('withdrawal_history_created_idx').on(t.createdAt, t.toState),
  ],
);

/**
 * A client's Idempotency-Key per user and route: the hash of the request it came with and the answer
 * it got, written in the same transaction as the effect, so a retry gets the same answer.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.scope, t.key] })],
);

/**
 * Background work shared by every server instance (docs/design.md "Architecture"): claimed with FOR UPDATE SKIP
 * LOCKED and leased until `locked_until`, so a job whose instance died is picked up again.
 * `dedupe_key` makes enqueueing the same work twice a no-op.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    dedupeKey: text('dedupe_key').notNull().unique(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('jobs_due_idx').on(t.runAt).where(sql`${t.doneAt} is null`)],
);

/**
 * The sandbox payout gateway's own records (what a real gateway keeps on its side): one payout per
 * order number, however often it is dispatched, with the outcome it will report.
 */
export const sandboxPayouts = pgTable('sandbox_payouts', {
  orderNo: text('order_no').primaryKey(),
  amount: bigint('amount', { mode: 'bigint' }).notNull(),
  account: jsonb('account').$type<Record<string, string>>().notNull(),
  notifyUrl: text('notify_url').notNull(),
  status: text('status').$type<'success' | 'failed'>().notNull(),
  reference: text('reference'),
  reason: text('reason'),
  dispatchCount: integer('dispatch_count').notNull().default(1),
  createdAt: createdAt(),
  notifiedAt: timestamp('notified_at', { withTimezone: true }),
});

/**
 * Every signed gateway callback we accepted (masterpay callbacks, RazorpayX webhooks, RazorpayX
 * payouts fetched by reconciliation), once per `event_key` (RazorpayX: payout id + status, as their
 * docs advise): the evidence a payout mismatch shows, and how a duplicate delivery is recognised.
 */
export const payoutCallbacks = pgTable(
  'payout_callbacks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    withdrawalId: bigint('withdrawal_id', { mode: 'number' })
      .notNull()
      .references(() => withdrawals.id),
    gateway: text('gateway').$type<PayoutGatewayName>().notNull(),
    eventKey: text('event_key').notNull().unique(),
    status: text('status').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** Whether it changed the withdrawal's state (the one a later contradiction is shown against). */
    applied: boolean('applied').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('payout_callbacks_withdrawal_idx').on(t.withdrawalId, t.id)],
);

/**
 * A signed callback that contradicts a withdrawal's final state (failed then success, success then
 * failed, a success of another amount or bank reference, processed after reversed). Opened once per
 * `dedupe_key`; an operator resolves it by recovering the amount from the wallet or dismissing it.
 */
export const payoutMismatches = pgTable(
  'payout_mismatches',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Null only for a payout the gateway made that no withdrawal of Kamai's has (found by reconciliation). */
    withdrawalId: bigint('withdrawal_id', { mode: 'number' }).references(() => withdrawals.id),
    gateway: text('gateway').$type<PayoutGatewayName>().notNull(),
    dedupeKey: text('dedupe_key').notNull().unique(),
    /** The withdrawal's state when the callback came (null: no withdrawal). */
    state: text('state').$type<WithdrawalState>(),
    callbackStatus: text('callback_status').notNull(),
    callbackAmount: bigint('callback_amount', { mode: 'bigint' }),
    callbackReference: text('callback_reference'),
    settledCallbackId: bigint('settled_callback_id', { mode: 'number' }).references(() => payoutCallbacks.id),
    /** The contradicting report; null for a payout no withdrawal has, and a withdrawal the gateway has no payout for. */
    callbackId: bigint('callback_id', { mode: 'number' }).references(() => payoutCallbacks.id),
    /** `callback` (a report contradicting the state) or what the daily reconciliation found (PAYOUT_MISMATCH_KINDS). */
    kind: text('kind').notNull().default('callback'),
    /** The gateway's payout id, when there is one. */
    gatewayPayoutId: text('gateway_payout_id'),
    /** What Kamai holds and what the gateway's record says, field by field, for the operator. */
    details: jsonb('details').$type<Record<string, unknown>>(),
    /** The reconciliation run that found it. */
    reconciliationId: bigint('reconciliation_id', { mode: 'number' }).references(() => payoutReconciliations.id),
    resolution: text('resolution').$type<'recover' | 'dismiss'>(),
    resolutionReason: text('resolution_reason'),
    resolvedBy: bigint('resolved_by', { mode: 'number' }).references(() => users.id),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('payout_mismatches_withdrawal_idx').on(t.withdrawalId),
    index('payout_mismatches_open_idx').on(t.id).where(sql`${t.resolvedAt} is null`),
    index('payout_mismatches_created_idx').on(t.createdAt),
  ],
);

/**
 * Money that came back for a deleted account (a paid payout the bank reversed, a hold returned): it
 * is posted to the `platform_unclaimed` account, never to the frozen wallet, and waits here for an
 * operator, who marks it handled with a note (docs/decisions/unclaimed-money.md).
 */
export const unclaimedMoney = pgTable(
  'unclaimed_money',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    withdrawalId: bigint('withdrawal_id', { mode: 'number' })
      .notNull()
      .references(() => withdrawals.id),
    /** The posting that moved the money into `platform_unclaimed`. */
    postingId: bigint('posting_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => postings.id),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** `reversal`: the bank returned a paid payout; `refund`: a hold that went back. */
    kind: text('kind').$type<'reversal' | 'refund'>().notNull(),
    /** The gateway's words about the return, when it gave any. */
    reason: text('reason'),
    handledBy: bigint('handled_by', { mode: 'number' }).references(() => users.id),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    index('unclaimed_money_open_idx').on(t.id).where(sql`${t.handledAt} is null`),
    index('unclaimed_money_withdrawal_idx').on(t.withdrawalId),
    check('unclaimed_money_kind', sql`${t.kind} in ('reversal', 'refund')`),
    check('unclaimed_money_amount_positive', sql`${t.amount} > 0`),
  ],
);

/**
 * One run of the daily reconciliation against RazorpayX's record (docs/decisions/razorpayx-payouts.md):
 * the India calendar day it read, who started it (null: the job), what it fetched and found.
 */
export const payoutReconciliations = pgTable(
  'payout_reconciliations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    gateway: text('gateway').$type<PayoutGatewayName>().notNull(),
    /** The India calendar day, `YYYY-MM-DD`. */
    day: text('day').notNull(),
    startedBy: bigint('started_by', { mode: 'number' }).references(() => users.id),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** `running`, `done` or `failed` (then `error` says why). */
    status: text('status').notNull().default('running'),
    /** Counts: fetched, pages, ours, others, matched, settled, rate limited, and each kind of mismatch. */
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    error: text('error'),
  },
  (t) => [index('payout_reconciliations_started_idx').on(t.id.desc())],
);

/**
 * Where a registration or a login came from (docs/decisions/fraud-signals.md): the address as the app sees it (behind
 * TRUST_PROXY, the forwarded one), its comparison key (IPv4 as is, IPv6 by /64), the User-Agent, and
 * the device id the web app keeps in localStorage (null when absent or malformed).
 */
export const clientSignals = pgTable(
  'client_signals',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['register', 'login'] }).notNull(),
    ip: text('ip').notNull(),
    addressKey: text('address_key').notNull(),
    userAgent: text('user_agent').notNull().default(''),
    deviceId: text('device_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('client_signals_user_idx').on(t.userId, t.kind),
    index('client_signals_device_idx').on(t.deviceId),
    index('client_signals_address_idx').on(t.addressKey),
  ],
);

/**
 * A credit above the threshold, waiting for a second admin (four-eyes): posted only when another
 * admin approves it, keyed `revenue:request:<id>`.
 */
export const creditRequests = pgTable(
  'credit_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** Internal note (staff only). */
    remark: text('remark').notNull(),
    /** What the user's income record shows once posted; null: a generic label. */
    userText: text('user_text'),
    state: text('state').$type<CreditRequestState>().notNull().default('pending'),
    requestedBy: bigint('requested_by', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    reason: text('reason'),
    postingId: bigint('posting_id', { mode: 'number' }).references(() => postings.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_requests_state_idx').on(t.state, t.id),
    check('credit_requests_amount_positive', sql`${t.amount} > 0`),
    check('credit_requests_state_known', sql`${t.state} in ('pending', 'approved', 'rejected')`),
  ],
);

/**
 * A proposed change of a control (docs/decisions/dual-control.md): one admin proposes, another
 * applies. `oldValue` is what the proposal changes as it was when proposed (the apply refuses when it
 * is no longer so), `newValue` what applying stores. `earliestApplyAt` is `createdAt` unless the
 * proposer was the only active admin: then the proposer may apply it themself from 24 hours later.
 */
export const controlChanges = pgTable(
  'control_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').$type<ControlChangeKind>().notNull(),
    /** `setting:<key>` or `user:<id>`. */
    target: text('target').notNull(),
    oldValue: jsonb('old_value').$type<Record<string, unknown>>().notNull(),
    newValue: jsonb('new_value').$type<Record<string, unknown>>().notNull(),
    proposedBy: bigint('proposed_by', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    earliestApplyAt: timestamp('earliest_apply_at', { withTimezone: true }).notNull(),
    state: text('state').$type<ControlChangeState>().notNull().default('pending'),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('control_changes_state_idx').on(t.state, t.id),
    check('control_changes_state_known', sql`${t.state} in ('pending', 'applied', 'cancelled', 'expired')`),
    check('control_changes_kind_known', sql`${t.kind} in ('settings', 'rebate', 'role', 'unfreeze', 'linked_rate')`),
  ],
);

/**
 * A browser's Web Push subscription (docs/decisions/web-push.md): where to send (`endpoint`, checked against
 * PUSH_ALLOWED_ORIGINS when saved and again before each send), the keys that encrypt for it, and the
 * language its pushes are written in. One endpoint belongs to one user: the last one to subscribe it.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    locale: text('locale').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId, t.id)],
);

/**
 * A correctly signed gateway webhook that Kamai did not act on, with the reason (a payout made in the
 * gateway's dashboard, a report for a withdrawal never dispatched, a body of an unexpected shape, …).
 * Answered 2xx all the same: a gateway disables a webhook that keeps failing
 * (docs/decisions/razorpayx-payouts.md). Operators read them in the database (docs/operations.md).
 */
export const payoutWebhooksIgnored = pgTable(
  'payout_webhooks_ignored',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    gateway: text('gateway').$type<PayoutGatewayName>().notNull(),
    event: text('event'),
    payoutId: text('payout_id'),
    referenceId: text('reference_id'),
    reason: text('reason').notNull(),
    /** The parsed body (or, when it is not JSON, its size only). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('payout_webhooks_ignored_created_idx').on(t.createdAt)],
);

/**
 * A user's complaint (docs/decisions/grievances.md): what it is about, the user's text in the language
 * it was raised in, optionally the user's own withdrawal, wallet entry or payout account it points to
 * (checked when raised; no foreign key, as the kinds differ), and where it stands. Its deadlines are
 * counted from `created_at` (COMPLAINT_ACK_HOURS, COMPLAINT_RESOLVE_DAYS); its number is `KM-` and the id.
 */
export const complaints = pgTable(
  'complaints',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    category: text('category').$type<ComplaintCategory>().notNull(),
    text: text('text').notNull(),
    locale: text('locale').notNull(),
    subjectKind: text('subject_kind').$type<ComplaintSubjectKind>(),
    subjectId: bigint('subject_id', { mode: 'number' }),
    state: text('state').$type<ComplaintState>().notNull().default('open'),
    outcome: text('outcome').$type<ComplaintOutcome>(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('complaints_user_idx').on(t.userId, t.id.desc()),
    index('complaints_state_idx').on(t.state, t.id),
    check('complaints_state_known', sql`${t.state} in ('open', 'acknowledged', 'closed')`),
    check(
      'complaints_category_known',
      sql`${t.category} in ('withdrawal', 'reward', 'payout_account', 'privacy', 'other')`,
    ),
    check(
      'complaints_subject_known',
      sql`(${t.subjectKind} is null and ${t.subjectId} is null) or (${t.subjectKind} in ('withdrawal', 'entry', 'payout_account') and ${t.subjectId} is not null)`,
    ),
    check(
      'complaints_closed_outcome',
      sql`(${t.state} = 'closed') = (${t.outcome} is not null and ${t.closedAt} is not null)`,
    ),
  ],
);

/** What happened to a complaint after it was raised: acknowledged, an operator's reply, closed (with its outcome). */
export const complaintEvents = pgTable(
  'complaint_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    complaintId: bigint('complaint_id', { mode: 'number' })
      .notNull()
      .references(() => complaints.id),
    kind: text('kind').$type<Exclude<ComplaintEventKind, 'raised'>>().notNull(),
    /** The operator. */
    actorId: bigint('actor_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    text: text('text'),
    outcome: text('outcome').$type<ComplaintOutcome>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('complaint_events_complaint_idx').on(t.complaintId, t.id),
    check('complaint_events_kind_known', sql`${t.kind} in ('acknowledged', 'reply', 'closed')`),
  ],
);
