import { INTRO_WATCH_SHARE, type IntroData, type IntroProgressData } from '@kamai/contract';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { getSetting } from '../../platform/settings.queries';
import * as q from './intro.queries';

/** Slack for the time a report spends on the way (the page reports every few seconds). */
const CLOCK_SLACK_SECONDS = 2;

export function createIntroService({ db, now }: { db: Db; now: () => Date }) {
  function detail(): Promise<IntroData> {
    return getSetting(db, 'intro');
  }

  /**
   * The page reports the seconds of video played so far. The server believes at most the video's
   * length and the wall-clock time since the user's first report (no one plays faster than the clock),
   * keeps the most it has believed, and makes task 4 claimable once that reaches 80 % of the video.
   * Without a video there is nothing to watch and task 4 is hidden.
   */
  async function progress(userId: number, reported: number): Promise<IntroProgressData> {
    const intro = await getSetting(db, 'intro');
    if (!intro.videoUrl || !intro.videoSeconds) throw new AppError('intro_no_video');
    const length = intro.videoSeconds;
    const required = Math.ceil(length * INTRO_WATCH_SHARE);
    return db.transaction(async (tx) => {
      const at = now();
      const watch = await q.lockOrStartWatch(tx, userId, at);
      const elapsed = Math.max(0, (at.getTime() - watch.startedAt.getTime()) / 1000);
      const believed = Math.floor(Math.min(reported, elapsed + CLOCK_SLACK_SECONDS, length));
      const watched = Math.max(watch.watchedSeconds, believed);
      if (watched !== watch.watchedSeconds) await q.saveWatch(tx, userId, watched, at);
      const complete = watched >= required;
      if (complete) await q.recordView(tx, userId);
      return { watchedSeconds: watched, requiredSeconds: required, complete };
    });
  }

  return { detail, progress };
}

export type IntroService = ReturnType<typeof createIntroService>;
