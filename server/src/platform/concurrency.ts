/** Thrown when a limit's queue is full: the caller should answer "busy" at once rather than wait. */
export class QueueFullError extends Error {}

/**
 * Runs at most `max` tasks at once; up to `maxWaiting` more wait in order, and past that a task is
 * refused at once with QueueFullError. A finished task hands its slot straight to the next waiter.
 */
export function concurrencyLimit(max: number, maxWaiting: number) {
  let running = 0;
  const waiting: (() => void)[] = [];

  function release() {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }

  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running < max) {
      running += 1;
    } else {
      if (waiting.length >= maxWaiting) throw new QueueFullError(`${waiting.length} tasks already waiting`);
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    try {
      return await task();
    } finally {
      release();
    }
  };
}
