// Preloaded into a server by bench/async-per-request.ts (node --import): counts the asynchronous
// resources the process creates, by type (PROMISE, Timeout, Immediate, TickObject, ...), and on
// SIGUSR2 writes the counts so far as one JSON line to stderr. A count, not a time: the same on a
// loaded machine as on a quiet one.
import { createHook } from 'node:async_hooks';

const counts = {};
createHook({
  init(_id, type) {
    counts[type] = (counts[type] ?? 0) + 1;
  },
}).enable();
process.on('SIGUSR2', () => process.stderr.write(`${JSON.stringify({ asyncCounts: counts })}\n`));
