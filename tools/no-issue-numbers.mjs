// Fails when a tracked text file says "issue N" (or "issues N"): comments, docs and test titles name
// the decision record a rule came from (docs/decisions/<name>.md), never the tracker's number, which
// a reader of the code cannot follow. Run by `npm run lint`.
//
// Migrations are left out: they are history, applied once, and are not edited after they ship.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const PATTERN = /\b[Ii]ssues? #?\d+/;
const SKIPPED = [/^server\/src\/db\/migrations\//, /(^|\/)package-lock\.json$/];
const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|css|html|sql|md|sh|json|ya?ml)$/;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
})
  .split('\0')
  .filter((file) => TEXT.test(file) && !SKIPPED.some((skip) => skip.test(file)));

const found = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // listed by git but deleted from the work tree
  }
  text.split('\n').forEach((line, i) => {
    if (PATTERN.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
  });
}

if (found.length > 0) {
  console.error(found.join('\n'));
  console.error(
    `\nno-issue-numbers: ${found.length} line(s) name an issue number. Point at the decision record ` +
      'that explains the rule (docs/decisions/<name>.md), or drop the reference.',
  );
  process.exit(1);
}
console.log(`no-issue-numbers: ${files.length} files, none names an issue number`);
