import type { IntroData } from '@kamai/contract';
import type { Db } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { AppError } from '../../platform/errors';
import type { Actor } from '../../platform/routes';
import { getSetting, putSetting } from '../../platform/settings.queries';

export type IntroChanges = Partial<Omit<IntroData, 'videoUrl' | 'videoSeconds'>> & {
  videoUrl?: string | null;
  videoSeconds?: number | null;
};

/** The operators' side of the introduction: its video and figures. */
export function createIntroAdmin({ db }: { db: Db }) {
  /** Merges the given fields into the introduction's settings; an empty video URL clears it. */
  async function set(actor: Actor, changes: IntroChanges) {
    return db.transaction(async (tx) => {
      const before = await getSetting(tx, 'intro', { forUpdate: true });
      const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      const after: IntroData = { ...before, ...given };
      if (after.videoUrl === '') after.videoUrl = null;
      if (!after.videoUrl) after.videoSeconds = null;
      // Watch time is measured against the video's length, so a video needs one.
      else if (!after.videoSeconds) {
        throw new AppError('intro_video_seconds_required', {
          fields: { videoSeconds: 'intro_video_seconds_required' },
        });
      }
      await putSetting(tx, 'intro', after);
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'intro.set',
        target: 'setting:intro',
        before,
        after,
        requestId: actor.requestId,
      });
      return after;
    });
  }

  return { set };
}

export type IntroAdmin = ReturnType<typeof createIntroAdmin>;
