#!/usr/bin/env bash
# Fails when the schema (src/db/schema.ts) and the migrations (src/db/migrations) are out of step:
#  1. `drizzle-kit generate` must emit nothing (the last snapshot describes schema.ts);
#  2. with a PostgreSQL server (DATABASE_URL, or the one on 127.0.0.1:5432), the database the
#     migrations build must have the same tables, columns, defaults, indexes, constraints and enums
#     as one built straight from schema.ts. Functions and triggers are left out of the comparison:
#     drizzle's schema cannot declare them. Triggers live in the migrations (audit_log's append-only
#     trigger); each function's current text lives in src/db/functions, applied after the migrations
#     (server/test/sql-functions.test.ts checks it).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=".tmp/check-migrations.$$"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
cp -r src/db/migrations "$tmp/current"

npx drizzle-kit generate --dialect postgresql --schema ./src/db/schema.ts --out "./$tmp/current" >"$tmp/generate.log" 2>&1 ||
  { cat "$tmp/generate.log"; exit 1; }
emitted=$(comm -13 <(ls src/db/migrations | sort) <(ls "$tmp/current" | sort))
if [ -n "$emitted" ]; then
  echo "check-migrations: drizzle-kit generate emitted $emitted: schema.ts and the migrations are out of step" >&2
  cat "$tmp/current/$emitted" >&2
  exit 1
fi
echo "check-migrations: drizzle-kit generate emits nothing"

url="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
if ! psql "$url" -qAtc 'select 1' >/dev/null 2>&1; then
  if [ "${CI:-}" = "true" ]; then echo "check-migrations: no PostgreSQL at $url" >&2; exit 1; fi
  echo "check-migrations: no PostgreSQL at $url; skipped the comparison of the built schemas"
  exit 0
fi

npx drizzle-kit generate --dialect postgresql --schema ./src/db/schema.ts --out "./$tmp/fromschema" >"$tmp/generate2.log" 2>&1 ||
  { cat "$tmp/generate2.log"; exit 1; }
suffix="$$_$(date +%s)"
a="kamai_migcheck_m_${suffix}"
b="kamai_migcheck_s_${suffix}"
cleanup_db() { psql "$url" -qc "drop database if exists $a with (force)" -c "drop database if exists $b with (force)" >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup_db EXIT
psql "$url" -qc "create database $a" -c "create database $b" >/dev/null
ua=$(printf '%s' "$url" | sed -E "s#^(postgres(ql)?://[^/]*)/[^?]*#\1/$a#")
ub=$(printf '%s' "$url" | sed -E "s#^(postgres(ql)?://[^/]*)/[^?]*#\1/$b#")
for f in src/db/migrations/*.sql; do psql "$ua" -q -v ON_ERROR_STOP=1 -f "$f" >/dev/null; done
for f in "$tmp"/fromschema/*.sql; do psql "$ub" -q -v ON_ERROR_STOP=1 -f "$f" >/dev/null; done

describe() {
  psql "$1" -qAt <<'SQL'
select 'column', table_name, column_name, data_type, udt_name, is_nullable, coalesce(column_default, '')
  from information_schema.columns where table_schema = 'public' order by 2, 3;
select 'index', indexdef from pg_indexes where schemaname = 'public' order by 2;
select 'constraint', conrelid::regclass::text, conname, pg_get_constraintdef(oid)
  from pg_constraint where connamespace = 'public'::regnamespace order by 2, 3;
select 'enum', t.typname, string_agg(e.enumlabel, ',' order by e.enumsortorder)
  from pg_type t join pg_enum e on e.enumtypid = t.oid group by t.typname order by 2;
SQL
}
describe "$ua" >"$tmp/migrations.txt"
describe "$ub" >"$tmp/schema.txt"
if ! diff -u "$tmp/migrations.txt" "$tmp/schema.txt" >"$tmp/diff.txt"; then
  echo "check-migrations: the migrations build a different database than schema.ts declares (- migrations, + schema.ts):" >&2
  cat "$tmp/diff.txt" >&2
  exit 1
fi
echo "check-migrations: the migrations build the schema that schema.ts declares ($(wc -l <"$tmp/schema.txt") catalogue lines compared)"
