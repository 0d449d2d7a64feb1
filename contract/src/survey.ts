import { z } from 'zod';
import { endpoints } from './endpoints';
import type { RouteDef } from './route-def';
import { refuseBidi } from './validation';

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

export const INTRO_VIDEO_SECONDS_MAX = 3600;

/** The introduction's facts: operator settings, never code (issue: survey, introduction). */
export const introData = z.object({
  videoUrl: z.string().nullable(),
  /** The video's length in seconds (the operator's figure); null without a video. */
  videoSeconds: z.number().int().nullable(),
  /** The headline figures; null until an operator sets them (the app then claims nothing). */
  userCount: z.number().int().nullable(),
  countryCount: z.number().int().nullable(),
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
  /** Required with a video: the server measures watch time against it. */
  videoSeconds: z.coerce.number().int().min(1).max(INTRO_VIDEO_SECONDS_MAX).nullable().optional(),
  /** null clears a figure: the app then shows none. */
  userCount: z.coerce.number().int().min(0).max(1e10).nullable().optional(),
  countryCount: z.coerce.number().int().min(0).max(300).nullable().optional(),
  /** ISO 3166-1 alpha-2 region codes; the app names them in the reader's language. */
  countries: z
    .array(
      z
        .string()
        .trim()
        .max(8)
        .toUpperCase()
        .regex(/^[A-Z]{2}$/),
    )
    .max(50)
    .optional(),
});

/** Task 4 becomes claimable once this share of the video has been played. */
export const INTRO_WATCH_SHARE = 0.8;

/** What the page reports while the video plays: the seconds actually played so far (all ranges together). */
export const introProgressBody = z.object({
  watchedSeconds: z.coerce
    .number({ error: 'validation_failed' })
    .min(0, 'validation_failed')
    .max(INTRO_VIDEO_SECONDS_MAX * 2, 'validation_failed'),
});

export const introProgressData = z.object({
  /** What the server accepted: at most the video's length and the wall-clock time since the first report. */
  watchedSeconds: z.number().int(),
  /** Seconds to play before task 4 can be claimed. */
  requiredSeconds: z.number().int(),
  complete: z.boolean(),
});
export type IntroProgressData = z.infer<typeof introProgressData>;

export const surveyRoutes = {
  surveySubmit: {
    ...endpoints.surveySubmit,
    policy: 'user',
    summary: 'Stores the survey once and credits task 3',
    tag: 'survey',
    body: refuseBidi(surveyAnswers),
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
  introProgress: {
    ...endpoints.introProgress,
    policy: 'user',
    summary:
      "Reports how much of the introduction's video the caller has played; task 4 becomes claimable at 80 %, counted no faster than the wall clock",
    tag: 'intro',
    body: introProgressBody,
    data: introProgressData,
  },
} as const satisfies Record<string, RouteDef>;
