/** Time left until a task ends: whole days, then "hh:mm:ss" in Latin digits (every locale's rule). */
export interface Countdown {
  days: number;
  clock: string;
}

/**
 * What is left from `now` until `endsAt` (both ms since the epoch), rounded up to the second so the
 * last second shows "00:00:01" rather than zero; undefined once the end has passed.
 */
export function countdown(endsAt: number, now: number): Countdown | undefined {
  const ms = endsAt - now;
  if (!(ms > 0)) return undefined;
  const total = Math.ceil(ms / 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  return { days, clock: `${two(hours)}:${two(minutes)}:${two(total % 60)}` };
}
