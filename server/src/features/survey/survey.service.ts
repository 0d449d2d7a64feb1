import { formatRupees, SURVEY_QUESTIONS, type SurveyAnswers, SYSTEM_TASK_IDS } from '@kamai/contract';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { completeSystemTask } from '../tasks';
import { walletBalance } from '../wallet';
import * as q from './survey.queries';

export function createSurveyService({ db, now }: { db: Db; now: () => Date }) {
  /** Stores the answers once and, in the same transaction, pays task 3. */
  async function submit(userId: number, input: SurveyAnswers) {
    const answers = Object.fromEntries(SURVEY_QUESTIONS.map((id) => [id, input[id]])) as SurveyAnswers;
    return db.transaction(async (tx) => {
      if (!(await q.insertResponse(tx, userId, answers))) throw new AppError('survey_already_submitted');
      const reward = await completeSystemTask(tx, userId, SYSTEM_TASK_IDS.survey, now());
      return { reward: formatRupees(reward), balance: formatRupees(await walletBalance(tx, userId)) };
    });
  }

  async function detail(userId: number) {
    const row = await q.findResponse(db, userId);
    return {
      submitted: Boolean(row),
      answers: row?.answers ?? null,
      submittedAt: row?.createdAt.toISOString() ?? null,
    };
  }

  return { submit, detail };
}

export type SurveyService = ReturnType<typeof createSurveyService>;
