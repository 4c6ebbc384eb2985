import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { REVIEW_DECISIONS } from "../../streams/batch.js";
import { mayReview, visibleTo } from "../batches/access.js";
import { findBatch } from "../batches/queries.js";
import { publishBatch, reviewBatch } from "../commands/batches/publication.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { application, bearerSecurity, callerOf, commandContext, settled } from "../http/authentication.js";
import { errorResponse } from "../http/errors.js";
import { readModels } from "../read-api/params.js";
import { refreshScopeSchema } from "../submission-api/schemas.js";
import { FIXTURE_READ_MODELS } from "../submission-api/submissions.js";
import { batchReferenceParams, batchSchema, toApi } from "./schemas.js";

/**
 * Review and publication of a validated batch (docs/batches.md, "Review" and
 * "Publication"): an administrator in the batch's competition who did not send it approves
 * or rejects its accepted items, then publishes the approved ones into the fixtures' ledgers.
 */

const TAGS = ["Batches"];
const PATH = "/api/v1/batches/{batchReference}";
const BATCH_READ_MODELS = ["batches"] as const;
const WHO =
  "An administrator in the batch's competition scope who did not send it: its sender is 403 SELF_REVIEW_FORBIDDEN; anyone else, as for a batch they cannot see, 403 FORBIDDEN.";

const refusals = {
  ...errorResponse(
    403,
    "SELF_REVIEW_FORBIDDEN: the caller sent the batch. FORBIDDEN: not an administrator in the batch's competition scope, a disabled account, or a batch that is not the caller's to see (an unknown reference answers the same).",
  ),
  ...errorResponse(404, "NOT_FOUND: a reference holding text no reference can (U+0000, a lone surrogate)"),
};

export const reviewRequestSchema = z
  .strictObject({
    decision: z.enum(REVIEW_DECISIONS).openapi({ example: "approved" }),
    items: z
      .union([
        z.array(z.number().int().min(0)).min(1).max(10_000),
        z.literal("all").openapi({ description: "Every accepted item of the batch." }),
      ])
      .openapi({
        description: "The items decided on, by their report ordinals, or `all` for every accepted item.",
        example: [0, 1, 2],
      }),
    reason: z.string().trim().min(1).max(1000).openapi({
      description: "Why: recorded with every item decided, and with what publication writes.",
      example: "Checked against the scorer's sheet",
    }),
  })
  .openapi("BatchReviewRequest");

const reviewRoute = createRoute({
  method: "post",
  path: `${PATH}/reviews`,
  tags: TAGS,
  operationId: "reviewBatchItems",
  summary: "Approve or reject a validated batch's accepted items",
  description: `Records a reviewer's decision, with its reason, on accepted items of a \`validated\` batch (named by their report ordinals) or on all of them. A later decision on an item replaces the earlier one until the batch is published; every decision stays in the batch's history, and sending the decisions that stand again records nothing. Publishes nothing. ${WHO}`,
  ...implemented,
  security: bearerSecurity,
  request: {
    params: batchReferenceParams,
    body: { required: true, content: { "application/json": { schema: reviewRequestSchema } } },
  },
  responses: {
    200: {
      description: "The batch, its review counts as the decision left them",
      content: { "application/json": { schema: z.object({ data: batchSchema }) } },
    },
    ...refusals,
    ...errorResponse(
      409,
      "BATCH_NOT_REVIEWABLE: the batch is not `validated` (still validating, staged, rejected) or is already published. ITEM_NOT_REVIEWABLE: an item named is not accepted (rejected, unresolved, duplicate or conflicting: nothing of it can be published), each named in the details; nothing was recorded.",
    ),
    ...errorResponse(
      422,
      "VALIDATION_FAILED: the body is malformed, or names an ordinal the batch has not (ITEM_NOT_FOUND on `items.N`).",
    ),
  },
});

const publicationSchema = z
  .object({
    status: z.enum(["published", "partially_published", "rejected"]).openapi({ example: "partially_published" }),
    published: z.number().int().openapi({ description: "Items in the ledger by this batch.", example: 118 }),
    refused: z.number().int().openapi({
      description: "Approved items the ledger no longer took (each with its rule in the report).",
      example: 2,
    }),
    changed: z.boolean().openapi({ description: "false when the batch was already published: nothing was written." }),
    refreshedScopes: z.array(refreshScopeSchema).openapi({
      description: "The statistics scopes this request changed (none for a repeated publication).",
    }),
    batch: batchSchema,
  })
  .openapi("BatchPublication");

const publishRoute = createRoute({
  method: "post",
  path: `${PATH}/publication`,
  tags: TAGS,
  operationId: "publishBatch",
  summary: "Publish a reviewed batch's approved items",
  description: `Publishes the approved items of a \`validated\` batch whose accepted items all have a decision: each new delivery is recorded (revision 1) and each correction becomes the next revision of the delivery it corrects, in its fixture's ledger, after a record naming the batch, the items and their approvals. Each item is checked again against the ledger as it is now: one that no longer fits (its place taken, its target gone or changed to what it says) is refused and reported. The batch ends \`published\` (every item of the package published), \`partially_published\` (some published, some not: rejected by validation or review, or refused) or \`rejected\` (none). Answers with the statistics scopes that changed, like a correction, once the read models show it. Repeating it publishes nothing twice and answers the publication as it stood. ${WHO} No body.`,
  ...implemented,
  security: bearerSecurity,
  request: { params: batchReferenceParams },
  responses: {
    200: {
      description: "What publication did",
      content: { "application/json": { schema: z.object({ data: publicationSchema }) } },
    },
    ...refusals,
    ...errorResponse(
      409,
      "BATCH_NOT_REVIEWABLE: the batch is not `validated`. REVIEW_INCOMPLETE: accepted items still wait for a decision. EVENT_CONFLICT: a fixture kept changing under writers elsewhere; retry (what was published stays, and is not published again).",
    ),
  },
});

export function registerReviews(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  /** The batch, when the caller may review it. */
  const reviewable = async (c: Context, batchReference: string) => {
    const { account } = callerOf(c);
    const batch = visibleTo(account, await findBatch(sql(), batchReference));
    mayReview(account, batch);
    return { account, batch };
  };
  const current = async (batchReference: string) =>
    toApi((await findBatch(sql(), batchReference)) as NonNullable<Awaited<ReturnType<typeof findBatch>>>);

  app.openapi(reviewRoute, async (c) => {
    const { account, batch } = await reviewable(c, c.req.valid("param").batchReference);
    const { items, decision, reason } = c.req.valid("json");
    const services = application(deps);
    const context = { ...commandContext(c), actor: account.accountId };
    const outcome = await reviewBatch(
      { store: services.store, sql: sql() },
      batch.batchReference,
      { reviewerAccountId: account.accountId, decision, reason, items },
      context,
    );
    await settled(services, outcome, BATCH_READ_MODELS);
    return c.json({ data: await current(batch.batchReference) }, 200);
  });

  app.openapi(publishRoute, async (c) => {
    const { account, batch } = await reviewable(c, c.req.valid("param").batchReference);
    const services = application(deps);
    const outcome = await publishBatch(
      { store: services.store, sql: sql() },
      { batchReference: batch.batchReference, publisher: account },
      { ...commandContext(c), actor: account.accountId },
    );
    await settled(services, outcome, [...FIXTURE_READ_MODELS, ...BATCH_READ_MODELS]);
    const { status, published, refused } = outcome.publication;
    return c.json(
      {
        data: {
          status,
          published: published.length,
          refused: refused.length,
          changed: outcome.events.length > 0,
          refreshedScopes: outcome.refreshedScopes,
          batch: await current(batch.batchReference),
        },
      },
      200,
    );
  });
}
