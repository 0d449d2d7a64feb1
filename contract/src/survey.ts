import { z } from 'zod';
import { endpoints } from './endpoints';
import type { RouteDef } from './route-def';

/**
 * The six questions of spec section 3 and how many options each has, in the order the spec lists
 * them; answers are 0-based option indexes. The texts are in the web app's `survey` namespace.
 */
export const SURVEY_OPTIONS = { a: 4, b: 4, c: 5, d: 4, e: 4, f: 2 } as const;
export type SurveyQuestion = keyof typeof SURVEY_OPTIONS;
export const SURVEY_QUESTIONS = Object.keys(SURVEY_OPTIONS) as SurveyQuestion[];

const answer = (options: number) =>
  z.coerce
    .number({ error: 'survey_answer_required' })
    .int('survey_answer_required')
    .min(0, 'survey_answer_required')
    .max(options - 1, 'survey_answer_required');

export const surveyAnswers = z.object({
  a: answer(SURVEY_OPTIONS.a),
  b: answer(SURVEY_OPTIONS.b),
  c: answer(SURVEY_OPTIONS.c),
  d: answer(SURVEY_OPTIONS.d),
  e: answer(SURVEY_OPTIONS.e),
  f: answer(SURVEY_OPTIONS.f),
});
export type SurveyAnswers = z.infer<typeof surveyAnswers>;

export const surveyDetailData = z.object({
  submitted: z.boolean(),
  answers: surveyAnswers.nullable(),
  submittedAt: z.string().nullable(),
});

/** The introduction's facts: operator settings, never code (issue: survey, introduction). */
export const introData = z.object({
  videoUrl: z.string().nullable(),
  userCount: z.number().int(),
  countryCount: z.number().int(),
  /** ISO 3166-1 alpha-2 region codes (`IN`, `NP`). */
  countries: z.array(z.string()),
});
export type IntroData = z.infer<typeof introData>;

export const introSetBody = z.object({
  videoUrl: z
    .string()
    .trim()
    .max(500)
    .refine((v) => v === '' || /^(https?:\/\/|\/)/.test(v), 'validation_failed')
    .nullable()
    .optional(),
  userCount: z.coerce.number().int().min(0).max(1e10).optional(),
  countryCount: z.coerce.number().int().min(0).max(300).optional(),
  /** ISO 3166-1 alpha-2 region codes; the app names them in the reader's language. */
  countries: z
    .array(
      z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{2}$/),
    )
    .max(50)
    .optional(),
});

export const surveyRoutes = {
  surveySubmit: {
    ...endpoints.surveySubmit,
    policy: 'user',
    summary: 'Stores the survey once and credits task 3',
    tag: 'survey',
    body: surveyAnswers,
    data: z.object({ reward: z.string(), balance: z.string() }),
    ok: 'survey_submitted',
  },
  surveyDetail: {
    ...endpoints.surveyDetail,
    policy: 'user',
    summary: "The caller's survey answers, if any",
    tag: 'survey',
    data: surveyDetailData,
  },
  introDetail: {
    ...endpoints.introDetail,
    policy: 'public',
    summary: "The platform introduction's facts and video",
    tag: 'intro',
    data: introData,
  },
  introViewed: {
    ...endpoints.introViewed,
    policy: 'user',
    summary: 'Records that the caller viewed the introduction (task 4 becomes claimable)',
    tag: 'intro',
    data: z.null(),
  },
} as const satisfies Record<string, RouteDef>;
