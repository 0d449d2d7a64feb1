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
export const SHARED_READS = {};

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
        if (!typeOnly && valueNames.length > 0 && path.startsWith('server/src/features/') && !path.endsWith('.queries.ts')) {
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
      if (!used.has(`${path}\0${name}`)) violations.push(`tools/table-owners.mjs: SHARED_READS lists ${path}: ${name}, no longer needed`);
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
