import { describe, expect, it } from 'vitest';
import { concurrencyLimit, QueueFullError } from './concurrency';

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('concurrencyLimit', () => {
  it('runs at most max at once, the rest in order, and refuses past the queue', async () => {
    const limit = concurrencyLimit(2, 2);
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const tasks = gates.map((gate, i) =>
      limit(async () => {
        active += 1;
        peak = Math.max(peak, active);
        order.push(i);
        await gate.promise;
        active -= 1;
        return i;
      }),
    );
    await expect(limit(async () => 'late')).rejects.toBeInstanceOf(QueueFullError);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3]);
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3]);
    // Every slot came back: two can run again at once.
    const again = [deferred(), deferred()];
    let started = 0;
    const more = again.map((gate) =>
      limit(async () => {
        started += 1;
        await gate.promise;
      }),
    );
    await Promise.resolve();
    expect(started).toBe(2);
    for (const gate of again) gate.resolve();
    await Promise.all(more);
  });

  it('frees the slot of a task that throws', async () => {
    const limit = concurrencyLimit(1, 0);
    await expect(
      limit(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(limit(async () => 'ok')).resolves.toBe('ok');
  });
});
