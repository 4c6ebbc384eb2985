import { createRoute, z } from "@hono/zod-openapi";
import { ConsumerNotFound } from "../commands/consumers/errors.js";
import { numericIdsHook, numericPathId } from "../consumer-api/params.js";
import { findOwnedConsumer } from "../consumers/queries.js";
import { consumerOf, requireConsumer } from "../http/access.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { bearerSecurity, callerOf, registerBearerScheme, requireCaller } from "../http/authentication.js";
import { apiKeySecurity, registerApiKeyScheme } from "../http/canonical-reads.js";
import { storableDate } from "../http/dates.js";
import { errorResponses } from "../http/errors.js";
import {
  cursorParam,
  DEFAULT_LIMIT,
  integerParam,
  keysetPage,
  MAX_LIMIT,
  paginationSchema,
} from "../http/pagination.js";
import { readModels, UNKNOWN_PARAMETERS } from "../read-api/params.js";
import { utcDate } from "../usage/dates.js";
import { usageKey, usageRows } from "../usage/queries.js";
import { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS, usageWindow } from "../usage/window.js";

/*
 * A consumer's usage telemetry (spec, Consumer key administration and Consumer-self usage):
 * for its owner through the admin bearer, and for the consumer itself through its key. Both
 * answer the same aggregate for the same query.
 */

const TAGS = ["API consumers"];

const date = (description: string, example: string) => storableDate().optional().openapi({ description, example });

const query = z.object({
  from: date(
    `First UTC date of the window (YYYY-MM-DD, inclusive); when absent, ${DEFAULT_USAGE_DAYS - 1} dates before \`to\`.`,
    "2026-11-16",
  ),
  to: date(
    `Last UTC date of the window (YYYY-MM-DD, inclusive); when absent, ${DEFAULT_USAGE_DAYS - 1} dates after \`from\`, or today (UTC) without \`from\`.`,
    "2026-11-22",
  ),
  limit: integerParam(1, MAX_LIMIT, `Most rows, 1 to ${MAX_LIMIT}; ${DEFAULT_LIMIT} when absent.`, DEFAULT_LIMIT)
    .optional()
    .openapi({ default: DEFAULT_LIMIT }),
  cursor: cursorParam,
});

const usageRowSchema = z
  .object({
    date: z.iso.date().openapi({ description: "The UTC date.", example: "2026-11-22" }),
    endpoint: z.string().openapi({
      description: "Method and route template, as the OpenAPI document names the operation.",
      example: "GET /api/v1/fixtures/{fixtureId}",
    }),
    statusClass: z.string().openapi({ description: "The response status class.", example: "2xx" }),
    requests: z.number().int().positive().openapi({
      description: "Requests on that date, to that endpoint, answered in that class, over all keys.",
      example: 412,
    }),
  })
  .openapi("UsageRow");

const usageSchema = z
  .object({
    data: z.object({
      consumerId: z.number().int().positive().openapi({ example: 7 }),
      from: z.iso.date().openapi({ description: "First date of the window, as applied.", example: "2026-11-16" }),
      to: z.iso.date().openapi({ description: "Last date of the window, as applied.", example: "2026-11-22" }),
      dailyQuota: z.number().int().openapi({ description: "The consumer's configured daily quota.", example: 10_000 }),
      rateLimitPerMinute: z
        .number()
        .int()
        .openapi({ description: "The consumer's configured per-minute limit.", example: 60 }),
      rows: z.array(usageRowSchema).openapi({
        description: "Latest date first, then endpoint, then status class, ascending (byte order).",
      }),
      truncated: z.boolean().openapi({
        description: "True when more rows follow this page: `pagination.nextCursor` continues after its last row.",
        example: false,
      }),
    }),
    pagination: paginationSchema,
  })
  .openapi("ConsumerUsage");

const DESCRIPTION = `Requests grouped by UTC date, endpoint (method and route template) and status class, summed over the consumer's keys; every answered keyed request counts, refusals (401 excepted: no consumer is known then) included. The window is \`from\` to \`to\`, inclusive, at most ${MAX_USAGE_DAYS} dates (kept ${MAX_USAGE_DAYS} days); one bound alone gives the ${DEFAULT_USAGE_DAYS} dates from or to it, neither the latest ${DEFAULT_USAGE_DAYS}. 400 VALIDATION_FAILED naming \`to\` when the window ends before it starts or spans more than ${MAX_USAGE_DAYS} dates. The configured limits are stated; live remaining counts are not. Requests other instances answered in the last few seconds may not show yet. ${UNKNOWN_PARAMETERS}`;

const adminRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/api-consumers/{consumerId}/usage",
  tags: TAGS,
  operationId: "getApiConsumerUsage",
  summary: "A consumer's usage aggregates",
  description: `${DESCRIPTION} Admin only; only the consumer's owner (another administrator's consumer is 404, like a missing one).`,
  ...implemented,
  security: bearerSecurity,
  request: {
    params: z.object({
      consumerId: numericPathId("consumerId", "The consumer's id, a positive integer; 422 otherwise."),
    }),
    query,
  },
  responses: {
    200: { description: "The consumer's usage", content: { "application/json": { schema: usageSchema } } },
    ...errorResponses(404, 422),
  },
});

const consumerRoute = createRoute({
  method: "get",
  path: "/api/v1/consumer/usage",
  tags: TAGS,
  operationId: "getOwnConsumerUsage",
  summary: "The calling consumer's own usage",
  description: `${DESCRIPTION} The consumer is the key's; no consumer id is taken. A valid X-API-Key is required (a missing key is 401 too), and the request counts against the consumer's limits.`,
  ...implemented,
  security: apiKeySecurity,
  request: { query },
  responses: {
    200: {
      description: "The calling consumer's usage, with its RateLimit-* and X-Quota-* headers",
      content: { "application/json": { schema: usageSchema } },
    },
  },
});

type Query = z.infer<typeof query>;
type Policy = { consumerId: number; dailyQuota: number; rateLimitPerMinute: number };

export function registerUsage(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  registerApiKeyScheme(app);
  const sql = readModels(deps);

  /**
   * The answer of both routes, a page at a time. This process's buffered requests are written
   * first, so a caller sees its own. A cursor is bound to the consumer and the window as asked
   * (not as applied), so paging a default window across UTC midnight goes on where it was.
   */
  async function usage(consumer: Policy, { cursor, limit, ...asked }: Query) {
    const window = usageWindow(asked, utcDate(new Date()));
    await deps.usage?.flush();
    const page = await keysetPage({
      scope: { operation: "consumerUsage", inputs: { consumerId: consumer.consumerId, ...asked } },
      limit,
      cursor,
      key: z.tuple([z.string(), z.string(), z.string()]),
      fetch: async (after, take) =>
        (await usageRows(sql(), { consumerId: consumer.consumerId, ...window, limit: take, after })).map((row) => ({
          item: row,
          key: usageKey(row),
        })),
    });
    return {
      data: {
        consumerId: consumer.consumerId,
        ...window,
        dailyQuota: consumer.dailyQuota,
        rateLimitPerMinute: consumer.rateLimitPerMinute,
        rows: page.data,
        truncated: page.pagination.nextCursor !== null,
      },
      pagination: page.pagination,
    };
  }

  app.openapi(
    { ...adminRoute, middleware: [requireCaller(deps, { admin: true })] },
    async (c) => {
      const { consumerId } = c.req.valid("param");
      const consumer = await findOwnedConsumer(sql(), callerOf(c).account.accountId, consumerId);
      if (!consumer) throw new ConsumerNotFound(consumerId);
      return c.json(await usage(consumer, c.req.valid("query")), 200);
    },
    numericIdsHook,
  );

  app.openapi({ ...consumerRoute, middleware: [requireConsumer(deps)] }, async (c) =>
    c.json(await usage(consumerOf(c), c.req.valid("query")), 200),
  );
}
