import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { IDEMPOTENCY_KEY } from "../../streams/batch.js";
import { maySend, visibleTo } from "../batches/access.js";
import { BATCH_STATUSES, type BatchView, batchKey, findBatch, listBatches } from "../batches/queries.js";
import { receiveBatch } from "../commands/batches/handlers.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import {
  application,
  bearerSecurity,
  callerOf,
  commandContext,
  registerBearerScheme,
  requireCaller,
} from "../http/authentication.js";
import { storableTimestamp } from "../http/dates.js";
import { ApiError, errorResponse } from "../http/errors.js";
import { collectionSchema, cursorParam, DEFAULT_LIMIT, keysetPage, limitParam } from "../http/pagination.js";
import { accountLimit } from "../http/rate-limits.js";
import type { Intake } from "../ingest/batches/intake.js";
import { readModels, UNKNOWN_PARAMETERS } from "../read-api/params.js";
import { registerAmendments } from "./amendments.js";
import { packageOf } from "./package-body.js";
import { registerReports } from "./reports.js";
import { registerReviews } from "./reviews.js";
import { batchPackageSchema, batchReferenceParams, batchSchema, toApi, unseenBatch } from "./schemas.js";

/**
 * Batch intake and status (bearer): a submitter or an administrator sends a package, which
 * is stored before the 202 and validated afterwards (docs/batches.md). A batch is seen only
 * by its sender and administrators; to anyone else it answers as an unknown one does.
 */

const TAGS = ["Batches"];
/** Packages an account may send per minute by default (BATCHES_PER_MINUTE): each may hold thousands of deliveries to validate. */
export const BATCHES_PER_MINUTE = 10;
const COLLECTION = "/api/v1/batches";
const READ_MODELS = ["batches"] as const;

const forbidden = {
  ...errorResponse(
    403,
    "FORBIDDEN: a disabled account; a viewer sending a package; a package for a competition outside the sender's submitter scope; or a batch that is not the caller's (an unknown reference answers the same)",
  ),
};

const idempotencyKeyParameter = {
  in: "header" as const,
  name: "Idempotency-Key",
  required: true,
  description:
    "The sender's name for this package, 1 to 255 visible ASCII characters (a UUID serves well), scoped to the sender. Sending the same key with the same content again returns the original receipt (with `Idempotent-Replayed: true`); the same key with other content is 409 IDEMPOTENCY_KEY_REUSED.",
  schema: { type: "string" as const, example: "9f1c2d7e-5b8a-4c3e-a1f0-6d2b7e9c4a18" },
};

const receiveRoute = createRoute({
  method: "post",
  path: COLLECTION,
  tags: TAGS,
  operationId: "receiveBatch",
  summary: "Send a batch package for validation and review",
  description:
    "Stores a batch package (contract version 1.0 or 1.1: one JSON, CSV or XLSX body of at most 1 MB, or a manifest and its files as multipart/form-data, each file at most 1 MB and 10 MB in all; docs/batches.md) and answers 202 with its receipt before validating it: the package is durable once the receipt is sent. Intake reads only the package's head: `contractVersion` (others are refused, never read best-effort: 422 UNSUPPORTED_CONTRACT_VERSION), `packageId` and the `competition` it is for, which must name exactly one competition (422 UNRESOLVED_REFERENCE or AMBIGUOUS_REFERENCE on `competition`), inside the sender's submitter scope for a submitter (403). A CSV or XLSX package has one delivery per row under a header naming its columns, its head in the first row's package columns; what cannot be read as a table is refused here too (not UTF-8 or not CSV, not a workbook, a workbook over 100 sheets or inflating past 64 MB, a formula in a cell: 422, FORMULA_NOT_ALLOWED for the last). Every other rule is validation's, reported in the batch's report. A submitter or an administrator.",
  ...implemented,
  security: bearerSecurity,
  parameters: [idempotencyKeyParameter],
  request: {
    body: {
      required: true,
      content: {
        "application/json": { schema: { $ref: "#/components/schemas/BatchPackage" } },
        "text/csv": {
          schema: {
            type: "string",
            description:
              'A header row naming the columns (docs/batches.md, "CSV and XLSX packages"), then one delivery per row, its package, fixture and innings columns repeated on every row.',
            example:
              "contractVersion,packageId,competition,fixtureDate,team1,team2,inningsOrdinal,battingTeam,eventId,occurrenceSequence,overNumber,positionInOver,striker,nonStriker,bowler,runsOffBat,runsExtras,runsTotal\n1.0,week-3,Indian Premier League,2024-04-01,Mumbai Indians,Chennai Super Kings,0,Mumbai Indians,0b6c1f7e-3d2a-4c5b-9e8f-7a6d5c4b3a21,1,0,0,RG Sharma,Ishan Kishan,DL Chahar,4,0,4\n",
          },
        },
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {
          schema: {
            type: "string",
            format: "binary",
            description:
              "A workbook whose sheets each hold the CSV's columns, the header in a sheet's first non-empty row; values only (no formulas), at most 100 sheets.",
          },
        },
        "multipart/form-data": {
          schema: {
            type: "object",
            required: ["manifest", "files"],
            properties: {
              manifest: {
                type: "string",
                description:
                  "JSON: the package's head (contractVersion, packageId, competition, season) and `files`, at least two, each {path (relative), mediaType (application/json, text/csv or the XLSX type), sha256 (lowercase hex of its bytes)}.",
              },
              files: {
                type: "array",
                items: { type: "string", format: "binary" },
                description:
                  "Each file of the manifest, named by its path: a JSON object `{fixtures: [...]}`, or a CSV or XLSX table of deliveries (its package columns, if given, must say what the manifest says); each at most 1 MB, 10 MB in all.",
              },
            },
          },
        },
      },
    },
  },
  responses: {
    202: {
      description: "Received and stored; validation follows. The receipt is the batch as its status shows it.",
      headers: {
        Location: {
          description: "The batch's status URI.",
          schema: { type: "string", example: `${COLLECTION}/3f6d1c2a-8b4e-5f7a-9c0d-1e2f3a4b5c6d` },
        },
        "Idempotent-Replayed": {
          description: "`true` when the key had received this content before: this is the original receipt.",
          schema: { type: "string", enum: ["true"] },
        },
      },
      content: { "application/json": { schema: z.object({ data: batchSchema }).openapi("BatchReceipt") } },
    },
    ...forbidden,
    ...errorResponse(
      429,
      `RATE_LIMIT_EXCEEDED: each account may send ${BATCHES_PER_MINUTE} packages per UTC minute by default (the setting BATCHES_PER_MINUTE; a replayed key counts too), with Retry-After and RateLimit-*; accepted answers carry RateLimit-* as well`,
    ),
    ...errorResponse(
      409,
      "IDEMPOTENCY_KEY_REUSED: the key already received a package with other content; nothing was stored",
    ),
    ...errorResponse(
      422,
      "VALIDATION_FAILED: the body cannot be received as a package (its head: contractVersion, packageId, competition); details name each problem. Nothing was stored.",
    ),
  },
});

const listRoute = createRoute({
  method: "get",
  path: COLLECTION,
  tags: TAGS,
  operationId: "listBatches",
  summary: "Batches, newest first",
  description: `The caller's own batches, newest first; an administrator sees every batch. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  security: bearerSecurity,
  request: {
    query: z.object({
      status: z
        .enum(BATCH_STATUSES)
        .optional()
        .openapi({ description: "Only batches in this state (docs/batches.md lists them).", example: "received" }),
      limit: limitParam,
      cursor: cursorParam,
    }),
  },
  responses: {
    200: {
      description: "A page of batches",
      content: {
        "application/json": { schema: collectionSchema(batchSchema, "BatchList", "Batches, newest first.") },
      },
    },
  },
});

const readRoute = createRoute({
  method: "get",
  path: `${COLLECTION}/{batchReference}`,
  tags: TAGS,
  operationId: "getBatch",
  summary: "A batch's lifecycle status",
  description: `Status, receipt and last-change times, validation progress and item counts of one batch. Its sender and administrators only. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  security: bearerSecurity,
  request: { params: batchReferenceParams },
  responses: {
    200: { description: "The batch", content: { "application/json": { schema: z.object({ data: batchSchema }) } } },
    ...unseenBatch,
  },
});

/** A batch just received, as its status will show it once projected. */
const receivedNow = (
  batchReference: string,
  ownerAccountId: string,
  competitionId: string,
  intake: Intake,
  at: Date,
): BatchView => ({
  batchReference,
  ownerAccountId,
  competitionId,
  packageId: intake.head.packageId,
  contractVersion: intake.head.contractVersion,
  checksum: intake.checksum,
  status: "received",
  fileCount: intake.files.length,
  byteCount: intake.files.reduce((sum, f) => sum + f.size, 0),
  receivedAt: at,
  updatedAt: at,
  revision: 0,
  progress: { itemsDone: 0, itemsTotal: null },
  counts: { accepted: 0, rejected: 0, unresolved: 0, duplicate: 0, conflicting: 0 },
  review: { approved: 0, rejected: 0, undecided: 0 },
  publication: null,
});

/** The key a package is sent under, as the header says it; 400 when absent or malformed. */
function idempotencyKeyOf(c: Context): string {
  const key = c.req.header("Idempotency-Key");
  if (key !== undefined && IDEMPOTENCY_KEY.test(key)) return key;
  throw new ApiError("VALIDATION_FAILED", "The request needs an Idempotency-Key", [
    {
      code: "INVALID_FIELD",
      message: key === undefined ? "Required: the sender's key for this package" : "1 to 255 visible ASCII characters",
      field: "Idempotency-Key",
    },
  ]);
}

/** Packages an account may send a minute, counted under "batches" by the API and the web UI's upload alike. */
export const batchLimit = (deps: AppDependencies) => ({
  limit: deps.limits?.batchesPerMinute ?? BATCHES_PER_MINUTE,
  windowMs: 60_000,
});

export function registerBatches(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  app.openAPIRegistry.register("BatchPackage", batchPackageSchema);
  const sql = readModels(deps);
  // The collection and every path below it (Hono's `/*` takes the collection's own path too).
  app.use(`${COLLECTION}/*`, requireCaller(deps));
  const limit = accountLimit(deps, "batches", batchLimit(deps));
  app.use(COLLECTION, (c, next) => (c.req.method === "POST" ? limit(c, next) : next()));

  const visible = async (c: Context, batchReference: string) =>
    visibleTo(callerOf(c).account, await findBatch(sql(), batchReference));

  app.openapi(receiveRoute, async (c) => {
    const { account } = callerOf(c);
    maySend(account);
    const intake = await packageOf(c);
    const idempotencyKey = idempotencyKeyOf(c);
    const services = application(deps);
    const context = commandContext(c);
    const receipt = await receiveBatch(
      { store: services.store, sql: sql() },
      { sender: account, idempotencyKey, intake },
      context,
    );
    // A replayed key appends nothing, but the batch may still be on its way to the read model.
    await services.projections?.waitFor(READ_MODELS, receipt.position);
    // Stored either way: while the read model trails (a rebuild, a slow worker) the receipt
    // is what this request knows, its time the request's.
    const batch =
      (await findBatch(sql(), receipt.batchReference)) ??
      receivedNow(receipt.batchReference, account.accountId, receipt.competitionId, intake, context.now);
    const headers: Record<string, string> = { Location: toApi(batch).links.status };
    if (receipt.events.length === 0) headers["Idempotent-Replayed"] = "true";
    return c.json({ data: toApi(batch) }, 202, headers);
  });

  app.openapi(listRoute, async (c) => {
    const { status, limit = DEFAULT_LIMIT, cursor } = c.req.valid("query");
    const { account } = callerOf(c);
    const ownerAccountId = account.role === "admin" ? undefined : account.accountId;
    const page = await keysetPage({
      scope: { operation: "listBatches", inputs: { status, ownerAccountId } },
      limit,
      cursor,
      key: z.tuple([storableTimestamp(), z.uuid()]),
      fetch: async (after, take) =>
        (await listBatches(sql(), { ownerAccountId, status }, { after, take })).map((b) => ({
          item: toApi(b),
          key: batchKey(b),
        })),
    });
    return c.json(page, 200);
  });

  registerReports(app, deps);
  registerAmendments(app, deps);
  registerReviews(app, deps);

  app.openapi(readRoute, async (c) =>
    c.json({ data: toApi(await visible(c, c.req.valid("param").batchReference)) }, 200),
  );
}
