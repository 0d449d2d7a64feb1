/**
 * Grows the ledger with SQL, not through the API (10^6 entries through the API would take an hour
 * here): `users` users with a wallet each and `entries / 2` revenue postings spread over them, each
 * a wallet credit and a platform revenue debit. Cached balances and `balance_after` are exact, so
 * the ledger check still holds on the grown database. The same SQL runs on PGlite and PostgreSQL.
 */
export function seedLedgerSql(options: { entries: number; users: number }): string {
  const postings = Math.max(1, Math.floor(options.entries / 2));
  const users = Math.max(1, Math.floor(options.users));
  const amount = '(100 + (p.n * 7919) % 90000)';
  return `
insert into users (username, password_hash, invite_code)
  select 'seed' || g || '@bench.kamai.local', 'seeded: no password', 'SEED' || lpad(g::text, 8, '0')
  from generate_series(1, ${users}) g;
insert into accounts (user_id, kind)
  select id, 'wallet' from users where username like 'seed%@bench.kamai.local' order by id;
create temporary table seed_wallets as
  select a.id as account_id, (row_number() over (order by a.id)) - 1 as k
  from accounts a join users u on u.id = a.user_id
  where a.kind = 'wallet' and u.username like 'seed%@bench.kamai.local';
insert into postings (type, idempotency_key)
  select 'manual_credit', 'bench-seed:' || g from generate_series(1, ${postings}) g;
create temporary table seed_postings as
  select id, split_part(idempotency_key, ':', 2)::bigint as n from postings where idempotency_key like 'bench-seed:%';
insert into entries (posting_id, account_id, amount, balance_after)
  select p.id, w.account_id, ${amount}, sum(${amount}) over (partition by w.account_id order by p.id)
  from seed_postings p join seed_wallets w on w.k = p.n % ${users}
  order by p.id;
insert into entries (posting_id, account_id, amount)
  select p.id, r.id, -${amount}
  from seed_postings p, (select id from accounts where kind = 'platform_revenue' and user_id is null) r
  order by p.id;
update accounts a set balance = s.total
  from (select account_id, sum(amount) as total from entries
        where account_id in (select account_id from seed_wallets) group by account_id) s
  where a.id = s.account_id;
drop table seed_wallets;
drop table seed_postings;
analyze;
`;
}
