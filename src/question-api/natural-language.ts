import { createRoute, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { sourceOf } from "../http/access.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { ApiError, errorResponses } from "../http/errors.js";
import { countRequest, rateLimitExceeded, retryAfter } from "../http/rate-limits.js";
import { answer as answerQuestion } from "../questions/answer.js";
import { MAX_QUESTION_CHARACTERS, QUESTION_LIMITS } from "../questions/limits.js";
import { evaluationContext } from "./context.js";
import { evaluationSchema, interpretationSchema } from "./schemas.js";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const body = z
  .strictObject({
    question: z
      .string()
      .refine((q) => q.trim().length > 0, "question must not be empty")
      .refine(
        (q) => [...q].length <= MAX_QUESTION_CHARACTERS,
        `question must be at most ${MAX_QUESTION_CHARACTERS} characters`,
      )
      .openapi({
        description: `The question, at most ${MAX_QUESTION_CHARACTERS} characters (Unicode code points).`,
        example: "Who was the top run scorer in IPL 2016?",
      }),
  })
  .openapi("NaturalLanguageQuery");

const answer = z
  .object({
    data: z
      .intersection(
        z.object({
          question: z
            .string()
            .openapi({ description: "The question as asked.", example: "Who was the top run scorer in IPL 2016?" }),
          interpretation: interpretationSchema,
        }),
        evaluationSchema,
      )
      .openapi("NaturalLanguageAnswer"),
  })
  .openapi("NaturalLanguageAnswerResponse");

const route = createRoute({
  method: "post",
  path: "/api/v1/natural-language-queries",
  tags: ["Analytics"],
  operationId: "askNaturalLanguageQuery",
  summary: "Answer a plain-English question",
  description: `Translates a question of at most ${MAX_QUESTION_CHARACTERS} characters into a query definition on the server (a deterministic parser over the names in our data: no model, no network) and evaluates it as \`POST /query-definitions/evaluate\` does. The answer carries the \`interpretation\` (the definition, names as written, and a one-line paraphrase) beside the outcome. A question about anything but the statistics we publish is \`no_match\`, never a guess; a leaderboard question naming no season or competition is \`ambiguous\` between the competitions. Limits, per client (an HMAC of its address) and for the service: ${QUESTION_LIMITS.perSourcePerMinute} a UTC minute and ${QUESTION_LIMITS.perSourcePerDay} a UTC day per client, ${QUESTION_LIMITS.platformPerDay} a day in all by default (settings); past them 429 with Retry-After, RATE_LIMIT_EXCEEDED for the minute, QUOTA_EXCEEDED for the day.`,
  ...implemented,
  security: [],
  request: { body: { required: true, content: { "application/json": { schema: body } } } },
  responses: {
    200: { description: "The interpretation and the outcome", content: { "application/json": { schema: answer } } },
    ...errorResponses(400, 413, 415, 429, 503),
  },
});

/**
 * The question limits, of the API and the question page alike. Counted before the question
 * is read, so neither a malformed body nor a flood of them gets past the limits: the
 * client's minute, then its day, then the service's day (each counted only when the ones
 * before admit the question).
 */
export function questionLimits(deps: AppDependencies): MiddlewareHandler {
  const limits = deps.limits?.questions ?? QUESTION_LIMITS;
  return async (c, next) => {
    const source = sourceOf(deps, c);
    const now = Date.now();
    const [minute, day, platform] = await countRequest(
      deps,
      c,
      [
        { key: `questions:${source}`, windowMs: MINUTE_MS, limit: limits.perSourcePerMinute },
        { key: `questions-day:${source}`, windowMs: DAY_MS, limit: limits.perSourcePerDay },
        { key: "questions-platform-day", windowMs: DAY_MS, limit: limits.platformPerDay },
      ],
      now,
    );
    if (minute && !minute.allowed) throw rateLimitExceeded(minute, MINUTE_MS, now);
    const refusedDay = [day, platform].find((a) => a && !a.allowed);
    if (refusedDay) {
      const whose =
        refusedDay === day
          ? `this client's daily quota of ${limits.perSourcePerDay}`
          : `the service's daily cap of ${limits.platformPerDay}`;
      throw new ApiError(
        "QUOTA_EXCEEDED",
        `${whose} questions is used up; retry after ${refusedDay.retryAfterSeconds} s, at the next UTC midnight`,
      ).withHeaders(retryAfter(refusedDay));
    }
    await next();
  };
}

export function registerNaturalLanguageQueries(app: Router, deps: AppDependencies) {
  const context = evaluationContext(deps);
  app.openapi({ ...route, middleware: [questionLimits(deps)] }, async (c) => {
    const { question } = c.req.valid("json");
    return c.json({ data: await answerQuestion(await context(), question) } as never, 200);
  });
}
