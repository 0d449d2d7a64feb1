// Builds web/, admin/ and the server. `--changed` (npm start) skips a workspace whose inputs are the
// ones its last build was made from: every file git knows under the workspace's input folders
// (tracked or new, not ignored), hashed by content, plus the installed dependency tree, the Node
// version and this script. The hashes are kept beside the output (`<dist>/.inputs.json`, which the
// server never serves: dot files are not served) and written only after the build succeeded; the old
// file is removed before a build starts, so an interrupted build is never taken for a finished one.
// Without `--changed` (npm run build: CI, e2e, bench) every workspace is built.
// docs/decisions/build-skip.md says why this and not timestamps or a build tool.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Each build: the folders whose files it reads, its output folder and the files a finished build leaves. */
const WORKSPACES = [
  { name: 'web', inputs: ['web', 'contract', 'client'], dist: 'web/dist', outputs: ['index.html', 'sw.js'] },
  { name: 'admin', inputs: ['admin', 'contract', 'client'], dist: 'admin/dist', outputs: ['index.html'] },
  {
    name: 'server',
    // server/test and server/reliability are not in the bundle.
    inputs: ['server/src', 'server/scripts', 'server/package.json', 'server/tsconfig.json', 'contract'],
    dist: 'server/dist',
    outputs: ['main.js', 'pglite-template'],
  },
];

/** Inputs of every build: what npm installed, the TypeScript settings, the Node that runs the tools, this script. */
const SHARED = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json', 'tsconfig.base.json'];
const SELF = 'scripts/build.mjs';
const MANIFEST = '.inputs.json';

function hashFile(path) {
  try {
    return createHash('sha256')
      .update(readFileSync(join(root, path)))
      .digest('hex');
  } catch (error) {
    // Tracked but deleted in the work tree, or a shared file that does not exist (no install yet).
    if (error.code === 'ENOENT') return 'absent';
    throw error;
  }
}

/** The files git would commit under `paths` (tracked or new, not ignored); null outside a git work tree. */
function listFiles(paths) {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...paths], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    return [...new Set(out.split('\0').filter(Boolean))].sort();
  } catch {
    return null;
  }
}

/** The input hashes of one workspace, or null when they cannot be known (no git). */
function inputsOf(workspace) {
  const files = listFiles(workspace.inputs);
  if (files === null) return null;
  const hashes = { node: process.version };
  for (const file of [...SHARED, SELF, ...files]) hashes[file] = hashFile(file);
  return hashes;
}

function isCurrent(workspace, inputs) {
  const dist = join(root, workspace.dist);
  if (inputs === null || !workspace.outputs.every((file) => existsSync(join(dist, file)))) return false;
  try {
    const kept = JSON.parse(readFileSync(join(dist, MANIFEST), 'utf8'));
    return JSON.stringify(kept) === JSON.stringify(inputs);
  } catch {
    return false;
  }
}

const changedOnly = process.argv.includes('--changed');
for (const workspace of WORKSPACES) {
  const inputs = inputsOf(workspace);
  if (changedOnly && isCurrent(workspace, inputs)) {
    process.stdout.write(`${workspace.name}: up to date (${workspace.dist}/${MANIFEST})\n`);
    continue;
  }
  rmSync(join(root, workspace.dist, MANIFEST), { force: true });
  const run = spawnSync('npm', ['run', 'build', '-w', workspace.name], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  // Hashed before the build, so an edit made while it ran makes the next start build again.
  if (inputs !== null) writeFileSync(join(root, workspace.dist, MANIFEST), `${JSON.stringify(inputs, null, 1)}\n`);
}
