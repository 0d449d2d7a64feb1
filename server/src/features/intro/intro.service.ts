import type { IntroData } from '@kamai/contract';
import type { Db } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { getSetting, putSetting } from '../../platform/settings.queries';
import * as q from './intro.queries';

export type IntroChanges = Partial<Omit<IntroData, 'videoUrl'>> & { videoUrl?: string | null };

export function createIntroService({ db }: { db: Db }) {
  function detail(): Promise<IntroData> {
    return getSetting(db, 'intro');
  }

  /** Makes task 4 claimable; the page then calls `task/finish {taskId: 4}`. */
  async function viewed(userId: number) {
    await q.recordView(db, userId);
    return null;
  }

  /** Merges the given fields into the introduction's settings; an empty video URL clears it. */
  async function set(actor: { id: number; requestId: string }, changes: IntroChanges) {
    return db.transaction(async (tx) => {
      const before = await getSetting(tx, 'intro', { forUpdate: true });
      const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      const after: IntroData = { ...before, ...given };
      if (after.videoUrl === '') after.videoUrl = null;
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

  return { detail, viewed, set };
}

export type IntroService = ReturnType<typeof createIntroService>;
