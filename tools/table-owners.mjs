// Each table has one owner (docs/decisions/table-owners.md): the file of server/src/db/tables/ it is
// declared in names it, a feature of server/src/features/ or `platform`. Fails when
//  - a file imports a table it does not own: only the owner's `*.queries.ts` (under
//    server/src/features/<owner>/, or server/src/platform/ for `platform`) may; server/src/db/ itself
//    (the index, the table files, the client) may too; tests, scripts and benchmarks are not scanned;
//  - a feature's file other than a `*.queries.ts` imports a value from drizzle-orm (services never
//    build queries; type-only imports are fine);
//  - a listed read (SHARED_READS: one query joins another owner's table, read only) writes that table,
//    or is no longer needed.
// Run by `npm run lint`; `node tools/table-owners.mjs --list` prints every import that crosses owners.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * Reads that join another owner's table in the same query, kept because splitting them would cost a
 * round trip on a hot path or a consistent snapshot, or because the reader sits below the owner
 * (platform/ may not call a feature). Read only: the check fails if the file writes the table.
 * file → { table: why }.
 */
export const SHARED_READS = {
  // platform/ is below every feature and may call none: it reads what it needs in its own queries.
  'server/src/platform/audit.queries.ts': { users: 'the audit list names each actor (one keyset page)' },
  'server/src/platform/control-changes.queries.ts': { users: 'proposed changes name their proposer and approver' },
  'server/src/platform/sessions.queries.ts': { users: 'the session lookup joins the user in the same query' },
  'server/src/platform/stale.queries.ts': { users: 'read-your-writes: the username the primary has' },
  'server/src/platform/push.queries.ts': {
    pushSubscriptions: 'notify() enqueues one job per subscription in the statement of the change',
  },
  // Hot reads: the session, the user and the data in one statement (docs/decisions/authenticated-reads.md).
  'server/src/features/tasks/task-list.hot.queries.ts': {
    sessions: 'task/list checks the session in the same query as the data',
    users: 'task/list reads the user with the session',
  },
  'server/src/features/users/user-detail.hot.queries.ts': {
    sessions: 'user/detail checks the session in the same query as the data',
    accounts: 'user/detail reads the wallet balance in the same query',
  },
  'server/src/features/tasks/tasks.queries.ts': { users: "the console's proof list names each proof's user" },
  // survey imports tasks (its task is completed on answering): a fragment exported by survey would be a cycle.
  'server/src/features/tasks/tasks.facts.queries.ts': { surveyResponses: 'the survey fact, inside task/list' },
  // wallet is below tasks and withdrawals (both post through it).
  'server/src/features/wallet/wallet.queries.ts': {
    tasks: 'an income row names its task',
    withdrawals: 'the ledger check weighs the open withdrawals against the holds',
  },
  // withdrawals imports payout-accounts, so payout-accounts may not import withdrawals.
  'server/src/features/payout-accounts/account-checks.queries.ts': {
    accounts: "the operators' check list shows each user's balance",
    clientSignals: "the check list shows each user's devices",
    users: 'the check list names the user',
    withdrawals: 'the check list shows the withdrawals paying the number',
  },
  'server/src/features/payout-accounts/account-validation.queries.ts': {
    settings: 'the stored accountValidation setting, in the query of the check',
    withdrawals: "the withdrawals a check decides, locked in the check's transaction",
  },
  'server/src/features/payout-accounts/payout-accounts.queries.ts': {
    withdrawals: 'an account with a pending withdrawal stays',
  },
  // Operators' lists: one keyset page joins the rows with the user (and the money) they are about.
  'server/src/features/account/account.queries.ts': {
    users: 'the credit_after_deletion rule joins deleted users with the ledger',
  },
  'server/src/features/linked-accounts/linked-accounts.queries.ts': { users: 'the linked-account list names the user' },
  // otp stays below users: e2e/ and the sandbox senders import otp's queries without the server's routes.
  'server/src/features/otp/otp.queries.ts': { users: 'the sandbox outbox never lists a code sent to a staff account' },
  'server/src/features/payouts/payouts.queries.ts': {
    users: 'the mismatch list names the user',
    withdrawals: 'the mismatch list and the recovery rule read the withdrawal',
  },
  'server/src/features/withdrawals/unclaimed.queries.ts': { users: 'the unclaimed-money list names the user' },
  'server/src/features/withdrawals/withdrawals.queries.ts': { users: 'the review queue names the user' },
  'server/src/features/referrals/referrals.queries.ts': {
    accounts: "the invite tree with each invitee's income",
    entries: "the invite tree with each invitee's income",
    postings: "the invite tree with each invitee's income",
    users: "the invite tree is the users' inviter links",
  },
  'server/src/features/credits/credits.queries.ts': {
    accounts: "credit requests with the user's balance",
    entries: 'operator credits are ledger entries',
    postings: 'operator credits are ledger postings',
    users: 'credit requests name the user',
  },
  'server/src/features/complaints/complaints.queries.ts': {
    accounts: "a complaint shows the user's money at a glance",
    entries: "a complaint shows the user's money at a glance",
    payoutAccounts: 'a complaint about a payout shows its account',
    postings: "a complaint shows the user's money at a glance",
    users: 'complaints name the user',
    withdrawals: 'a complaint about a withdrawal shows it',
  },
  // The console's pages that belong to no feature (docs/decisions/feature-boundaries.md): figures and
  // exports over every owner's tables, each one read.
  'server/src/features/admin/admin-users.queries.ts': {
    accounts: 'the user list with balances',
    entries: 'the user list with balances',
    postings: 'the user list with balances',
    users: 'the user list',
  },
  'server/src/features/admin/dashboard.queries.ts': {
    accounts: 'dashboard figures',
    users: 'dashboard figures',
    withdrawalHistory: 'dashboard figures',
    withdrawals: 'dashboard figures',
  },
  'server/src/features/admin/export.queries.ts': {
    accounts: 'CSV exports',
    entries: 'CSV exports',
    postings: 'CSV exports',
    users: 'CSV exports',
    withdrawals: 'CSV exports',
  },
  'server/src/features/admin/queue-counts.queries.ts': {
    accountValidations: "the queues' counts in one query",
    payoutMismatches: "the queues' counts in one query",
    taskProofs: "the queues' counts in one query",
    withdrawals: "the queues' counts in one query",
  },
  'server/src/features/admin/trends.queries.ts': {
    accounts: 'dashboard trends',
    entries: 'dashboard trends',
    payoutMismatches: 'dashboard trends',
    postings: 'dashboard trends',
    users: 'dashboard trends',
    withdrawalHistory: 'dashboard trends',
    withdrawals: 'dashboard trends',
  },
};

const TABLES_DIR = 'server/src/db/tables/';

/** table export name → owner, from the table files' `export const x = pgTable(`. */
export function ownersOf(tableFiles) {
  const owners = new Map();
  for (const { path, text } of tableFiles) {
    const owner = path.slice(TABLES_DIR.length).replace(/\.ts$/, '');
    for (const m of text.matchAll(/export const (\w+) = pgTable\(/g)) owners.set(m[1], owner);
  }
  return owners;
}

const IMPORT = /import\s+(type\s+)?(\{[^}]*\}|\*\s+as\s+\w+|\w+)\s+from\s+'([^']+)'/g;

function resolves(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const parts = fromFile.split('/').slice(0, -1);
  for (const seg of specifier.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.') parts.push(seg);
  }
  return parts.join('/').replace(/\.(ts|js)$/, '');
}

function isSchemaModule(path) {
  return path === 'server/src/db/schema' || (path?.startsWith(TABLES_DIR) && path !== `${TABLES_DIR}columns`);
}

/** May `file` import the tables of `owner`? */
export function ownerMayImport(file, owner) {
  if (file.startsWith('server/src/db/')) return true;
  if (!file.endsWith('.queries.ts')) return false;
  if (owner === 'platform') return file.startsWith('server/src/platform/');
  return file.startsWith(`server/src/features/${owner}/`);
}

export function writes(text, local) {
  const name = local.replace(/\$/g, '\\$');
  return new RegExp(
    `\\.(insert|update|delete)\\(\\s*${name}\\s*\\)|\\b(insert\\s+into|update|delete\\s+from)\\s+\\$\\{${name}\\}`,
    'i',
  ).test(text);
}

/**
 * Every crossing and every violation in `files` ([{ path, text }], paths relative to the repository).
 * `shared` is the SHARED_READS list to apply.
 */
export function check(files, owners, shared = SHARED_READS) {
  const crossings = [];
  const violations = [];
  const used = new Set();
  for (const { path, text } of files) {
    if (!path.startsWith('server/src/') || /\.test\.tsx?$/.test(path)) continue;
    for (const m of text.matchAll(IMPORT)) {
      const [, typeOnly, what, specifier] = m;
      if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
        const valueNames = what.startsWith('{')
          ? what
              .slice(1, -1)
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s && !s.startsWith('type '))
          : [what];
        if (
          !typeOnly &&
          valueNames.length > 0 &&
          path.startsWith('server/src/features/') &&
          !path.endsWith('.queries.ts')
        ) {
          violations.push(
            `${path}: imports ${valueNames.join(', ')} from ${specifier}: only a *.queries.ts builds queries`,
          );
        }
        continue;
      }
      if (!isSchemaModule(resolves(path, specifier))) continue;
      if (!what.startsWith('{')) {
        if (!path.startsWith('server/src/db/')) violations.push(`${path}: imports the whole schema (${what})`);
        continue;
      }
      for (const item of what.slice(1, -1).split(',')) {
        const spec = item.trim().replace(/^type\s+/, '');
        if (!spec) continue;
        const [name, local = name] = spec.split(/\s+as\s+/);
        const owner = owners.get(name);
        if (!owner || ownerMayImport(path, owner)) continue;
        crossings.push(`${path}: ${name} (owner: ${owner})${writes(text, local) ? ' WRITES' : ''}`);
        const why = shared[path]?.[name];
        if (why === undefined) {
          violations.push(
            `${path}: imports ${name}, a table of ${owner}: only ${owner}'s *.queries.ts may. Call what ${owner} exports.`,
          );
          continue;
        }
        used.add(`${path}\0${name}`);
        if (writes(text, local)) violations.push(`${path}: writes ${name}, a table of ${owner}, through a shared read`);
      }
    }
  }
  for (const [path, tables] of Object.entries(shared)) {
    for (const name of Object.keys(tables)) {
      if (!used.has(`${path}\0${name}`))
        violations.push(`tools/table-owners.mjs: SHARED_READS lists ${path}: ${name}, no longer needed`);
    }
  }
  return { crossings, violations };
}

function main() {
  const paths = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', 'server/src'], {
    encoding: 'utf8',
  })
    .split('\0')
    .filter((p) => /\.tsx?$/.test(p));
  const files = [];
  for (const path of paths) {
    try {
      files.push({ path, text: readFileSync(path, 'utf8') });
    } catch {
      // listed by git but deleted from the work tree
    }
  }
  const owners = ownersOf(files.filter((f) => f.path.startsWith(TABLES_DIR)));
  const { crossings, violations } = check(files, owners);
  if (process.argv.includes('--list')) console.log(`${crossings.join('\n')}\n${crossings.length} crossing(s)`);
  if (violations.length > 0) {
    console.error(violations.join('\n'));
    console.error(`\ntable-owners: ${violations.length} violation(s); docs/decisions/table-owners.md says why.`);
    process.exit(1);
  }
  console.log(
    `table-owners: ${owners.size} tables, ${files.length} files; ${crossings.length} listed shared read(s), no other crossing`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
