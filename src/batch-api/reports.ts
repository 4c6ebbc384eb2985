import { createRoute, z } from "@hono/zod-openapi";
import { stream } from "hono/streaming";
import { ITEM_OUTCOMES } from "../../streams/batch.js";
import { visibleTo } from "../batches/access.js";
import {
  type BatchView,
  findBatch,
  findBatchReport,
  type ReportFilters,
  type ReportSummary,
  reportItems,
} from "../batches/queries.js";
import { memoryCache } from "../cache/memory.js";
import { readThrough, STATISTICS_TTL_SECONDS } from "../cache/versioned-cache.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { bearerSecurity, callerOf } from "../http/authentication.js";
import {
  collectionSchema,
  cursorParam,
  DEFAULT_LIMIT,
  INTEGER_MAX,
  keysetPage,
  limitParam,
} from "../http/pagination.js";
import { readModels, UNKNOWN_PARAMETERS } from "../read-api/params.js";
import { cacheOutcomeHeader } from "../read-api/versioned.js";
import { batchItemSchema, batchReferenceParams, reportSummarySchema, unseenBatch } from "./schemas.js";

/**
 * A batch's report: every item as validation judged it, with every fault located, and the
 * rules broken, grouped by code. Paged, or whole as a download that is written as it is
 * read, so memory does not grow with the package.
 */

const TAGS = ["Batches"];
const PATH = "/api/v1/batches/{batchReference}/report";
/** Items the download reads from the database at a time. */
const DOWNLOAD_PAGE = 500;

const filters = {
  outcome: z
    .enum(ITEM_OUTCOMES)
    .optional()
    .openapi({ description: "Only items with this outcome.", example: "rejected" }),
  code: z.string().trim().min(1).max(60).optional().openapi({
    description: "Only items that broke this rule (a fault's or a requirement's code).",
    example: "INVALID_PARTICIPANT",
  }),
};

const reportRoute = createRoute({
  method: "get",
  path: PATH,
  tags: TAGS,
  operationId: "getBatchReport",
  summary: "A batch's item outcomes, a page at a time",
  description: `Items in the package's reading order, each with its outcome (accepted, rejected, unresolved, duplicate, conflicting), every fault (rule code, message, JSON path) and every reference to resolve, with where it is in the match. \`summary\` gives the counts, the rules broken grouped by code, and the faults outside any delivery. Items appear as validation judges them. Its sender and administrators only. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  security: bearerSecurity,
  request: {
    params: batchReferenceParams,
    query: z.object({ ...filters, limit: limitParam, cursor: cursorParam }),
  },
  responses: {
    200: {
      description: "A page of the report",
      headers: cacheOutcomeHeader("keyed by the batch's revision, which validation, review and publication raise"),
      content: {
        "application/json": {
          schema: collectionSchema(batchItemSchema, "BatchReport", "Items in reading order.").extend({
            summary: reportSummarySchema,
          }),
        },
      },
    },
    ...unseenBatch,
  },
});

const downloadRoute = createRoute({
  method: "get",
  path: `${PATH}/download`,
  tags: TAGS,
  operationId: "downloadBatchReport",
  summary: "A batch's complete report as a JSON file",
  description: `The whole report as one JSON attachment (\`batch-<batchReference>-report.json\`): the batch, the summary and every item, written as it is read. Its sender and administrators only. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  security: bearerSecurity,
  request: { params: batchReferenceParams },
  responses: {
    200: {
      description: "The report",
      headers: {
        "Content-Disposition": {
          description: 'attachment; filename="batch-<batchReference>-report.json"',
          schema: { type: "string" },
        },
      },
      content: {
        "application/json": {
          schema: z
            .object({
              batchReference: z.string(),
              summary: reportSummarySchema,
              items: z.array(batchItemSchema),
            })
            .openapi("BatchReportFile"),
        },
      },
    },
    ...unseenBatch,
  },
});

/** The report's summary: the batch's status and counts, the rules broken and the package's faults. */
const summaryOf = ({ status, counts, rules, faults }: BatchView & ReportSummary) => ({ status, counts, rules, faults });

export function registerReports(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  const cache = deps.cache ?? memoryCache();

  // A page is cached under the batch's revision: validation, a review or publication raises
  // it, so a reader never sees a page older than the batch row it was just shown.
  app.openapi(reportRoute, async (c) => {
    const { outcome, code, limit = DEFAULT_LIMIT, cursor } = c.req.valid("query");
    const { account } = callerOf(c);
    const { batchReference, revision } = visibleTo(
      account,
      await findBatch(sql(), c.req.valid("param").batchReference),
    );
    const key = `batch-report:${JSON.stringify([batchReference, revision, outcome, code, limit, cursor])}`;
    const { value, outcome: cached } = await readThrough(
      cache,
      key,
      STATISTICS_TTL_SECONDS,
      async () => {
        const wanted: ReportFilters = { outcome, code };
        const page = await keysetPage({
          scope: { operation: "getBatchReport", inputs: { batch: batchReference, outcome, code } },
          limit,
          cursor,
          key: z.tuple([z.number().int().min(0).max(INTEGER_MAX)]),
          fetch: async (after, take) =>
            (await reportItems(sql(), batchReference, wanted, { after: after?.[0], take })).map((item) => ({
              item,
              key: [item.ordinal] as [number],
            })),
        });
        // Read after the items: the same revision on both sides means the page is the one the key names.
        const report = visibleTo(account, await findBatchReport(sql(), batchReference));
        return {
          value: JSON.stringify({ ...page, summary: summaryOf(report) }),
          cacheable: report.revision === revision,
        };
      },
      deps.logger,
    );
    return c.body(value, 200, { "Content-Type": "application/json", "X-Cache": cached.toUpperCase() }) as never;
  });

  app.openapi(downloadRoute, async (c) => {
    const batch = visibleTo(callerOf(c).account, await findBatchReport(sql(), c.req.valid("param").batchReference));
    const summary = summaryOf(batch);
    c.header("Content-Type", "application/json");
    c.header("Content-Disposition", `attachment; filename="batch-${batch.batchReference}-report.json"`);
    // Written a page of items at a time: the answer never holds the whole report. A streamed
    // body is no typed JSON answer to the route's types, as leaderboards' cached text is not.
    return stream(c, async (out) => {
      const head = JSON.stringify({ batchReference: batch.batchReference, summary });
      await out.write(`${head.slice(0, -1)},"items":[`);
      let after: number | undefined;
      let first = true;
      for (;;) {
        const items = await reportItems(sql(), batch.batchReference, {}, { after, take: DOWNLOAD_PAGE });
        for (const item of items) {
          await out.write(`${first ? "" : ","}${JSON.stringify(item)}`);
          first = false;
        }
        if (items.length < DOWNLOAD_PAGE) break;
        after = items.at(-1)?.ordinal;
      }
      await out.write("]}");
    }) as never;
  });
}
