import type { SurveyAnswers } from '@kamai/contract';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { surveyResponses } from '../../db/schema';

/** True when stored; false when the user had already answered. */
export async function insertResponse(db: Executor, userId: number, answers: SurveyAnswers) {
  const rows = await db
    .insert(surveyResponses)
    .values({ userId, answers })
    .onConflictDoNothing()
    .returning({ userId: surveyResponses.userId });
  return rows.length > 0;
}

export async function findResponse(db: Executor, userId: number) {
  const [row] = await db.select().from(surveyResponses).where(eq(surveyResponses.userId, userId)).limit(1);
  return row;
}

/** A deleted account's survey answers (docs/decisions/account-deletion.md). */
export async function deleteSurveyResponse(db: Executor, userId: number) {
  await db.delete(surveyResponses).where(eq(surveyResponses.userId, userId));
}
