/**
 * Natural-language questions a client may ask per UTC minute and per UTC day, and all
 * clients together per UTC day: parsing is cheap, but an open endpoint invites scraping.
 * Settings QUESTIONS_PER_MINUTE, QUESTIONS_PER_DAY and QUESTIONS_PLATFORM_PER_DAY.
 */
export type QuestionLimits = { perSourcePerMinute: number; perSourcePerDay: number; platformPerDay: number };
export const QUESTION_LIMITS: QuestionLimits = { perSourcePerMinute: 10, perSourcePerDay: 500, platformPerDay: 50_000 };

/** No limit worth the name: for benchmarks and tests that ask many questions from one client. */
export const UNLIMITED: QuestionLimits = {
  perSourcePerMinute: 1_000_000,
  perSourcePerDay: 1_000_000,
  platformPerDay: 1_000_000,
};

export const MAX_QUESTION_CHARACTERS = 300;
