/**
 * Fixed-window counters kept in this process. One instance per process is enough on a single
 * server; with several instances the per-address limits are per instance (documented in
 * docs/decisions.md), while the per-account and per-target limits live in the database.
 */
export class WindowCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  current(key: string): { count: number; retryAfterSeconds: number } {
    const entry = this.windows.get(key);
    const at = this.now();
    if (!entry || entry.resetAt <= at) return { count: 0, retryAfterSeconds: 0 };
    return { count: entry.count, retryAfterSeconds: Math.ceil((entry.resetAt - at) / 1000) };
  }

  increment(key: string, windowMs: number): number {
    const at = this.now();
    const entry = this.windows.get(key);
    if (!entry || entry.resetAt <= at) {
      if (this.windows.size > 100_000) this.sweep(at);
      this.windows.set(key, { count: 1, resetAt: at + windowMs });
      return 1;
    }
    entry.count += 1;
    return entry.count;
  }

  private sweep(at: number) {
    for (const [key, entry] of this.windows) if (entry.resetAt <= at) this.windows.delete(key);
  }
}
