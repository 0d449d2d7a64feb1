// One piscina worker of the password hashing pools (password.ts). Plain JavaScript beside the source,
// and copied beside the bundle by scripts/bundle-server.ts, so both load it as it is.
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';

// Lowest CPU priority (on Linux the nice value is per thread): a hash only takes CPU that the event
// loop, PGlite on it and PostgreSQL do not want (benchmark 5, docs/performance.md).
try {
  setPriority(workerData?.nice ?? 19);
} catch {
  // Not permitted here: hash at normal priority.
}

/** @param {{ op: 'hash', password: string, options: object } | { op: 'verify', stored: string, password: string }} task */
export default function run(task) {
  return task.op === 'hash' ? hashSync(task.password, task.options) : verifySync(task.stored, task.password);
}
