import { readFileSync } from 'node:fs';

/** The value of `--name=value` among the command's arguments, else `fallback`. */
export function option(name: string, fallback: string): string {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
}

/** `count` calls of `send`, `width` at a time. */
export async function inParallel(count: number, width: number, send: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await send(next++);
    }),
  );
}

/** The machine's load averages (1, 5, 15 minutes), printed beside a run's figures. */
export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/** Microseconds per CPU tick of /proc's utime and stime (USER_HZ). */
export const TICK_US = 1_000_000 / 100;
