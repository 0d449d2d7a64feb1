import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Argon2 on worker threads that run at the lowest CPU priority (nice 19; on Linux the nice value is
 * per thread). A hash then only takes CPU that the event loop, PGlite on it and PostgreSQL do not
 * want: under a login flood reads keep their latency and logins wait instead (benchmark 5,
 * docs/performance.md). libuv's pool, where @node-rs/argon2's async calls run, cannot be niced.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
try { require('node:os').setPriority(19); } catch {}
const argon2 = require(workerData.argon2);
parentPort.on('message', (task) => {
  try {
    const value = task.op === 'hash' ? argon2.hashSync(task.password, task.options) : argon2.verifySync(task.stored, task.password);
    parentPort.postMessage({ value });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
  }
});
`;

export type HashTask =
  | { op: 'hash'; password: string; options: Record<string, number> }
  | { op: 'verify'; stored: string; password: string };

/** At most `size` workers, made when first needed; the caller keeps at most `size` tasks running. */
export function hashWorkers(size: number) {
  const argon2 = createRequire(import.meta.url).resolve('@node-rs/argon2');
  const idle: Worker[] = [];
  let made = 0;

  function take(): Worker {
    const worker = idle.pop();
    if (worker) return worker;
    if (made >= size) throw new Error(`more than ${size} hash tasks at once`);
    made += 1;
    return new Worker(WORKER, { eval: true, workerData: { argon2 } });
  }

  return function run<T extends string | boolean>(task: HashTask): Promise<T> {
    const worker = take();
    worker.ref();
    return new Promise<T>((resolve, reject) => {
      const onError = (error: Error) => {
        made -= 1;
        reject(error);
      };
      worker.once('error', onError);
      worker.once('message', (reply: { value?: T; error?: string }) => {
        worker.off('error', onError);
        // An idle worker must not keep the process alive.
        worker.unref();
        idle.push(worker);
        if (reply.error !== undefined) reject(new Error(reply.error));
        else resolve(reply.value as T);
      });
      worker.postMessage(task);
    });
  };
}
