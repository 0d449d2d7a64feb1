import type { SurveyAnswers } from '@kamai/contract';
import { bigint, jsonb, pgTable } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

export const surveyResponses = pgTable('survey_responses', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  answers: jsonb('answers').$type<SurveyAnswers>().notNull(),
  createdAt: createdAt(),
});
