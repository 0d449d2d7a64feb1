import type { Db } from '../db/client';
import { pruneIdempotencyKeys } from './idempotency.queries';
import { pruneFinishedJobs } from './jobs.queries';

const HOUR_MS = 3_600_000;

export interface PruneOptions {
  db: Db;
  now: () => Date;
  jobRetentionHours: number;
  idempotencyRetentionHours: number;
}

/** Deletes finished jobs and idempotency keys past their retention; answers how many of each went. */
export async function pruneOldRows({ db, now, jobRetentionHours, idempotencyRetentionHours }: PruneOptions) {
  const jobsBefore = new Date(now().getTime() - jobRetentionHours * HOUR_MS);
  let jobs = 0;
  let batch: number;
  do {
    batch = await pruneFinishedJobs(db, jobsBefore);
    jobs += batch;
  } while (batch > 0);
  const keys = await pruneIdempotencyKeys(db, new Date(now().getTime() - idempotencyRetentionHours * HOUR_MS));
  return { jobs, keys };
}
