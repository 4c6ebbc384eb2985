import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { consumerStream } from "../../streams/consumer.js";
import { issueConsumer, type KeyOutcome, revokeKey, rotateKeys } from "../commands/consumers/handlers.js";
import { type ConsumerView, listOwnedConsumers } from "../consumers/queries.js";
import { consumerFromStream } from "../consumers/stream-view.js";
import { implemented, type Router } from "../http/api.js";
import { type AppDependencies, secretOf } from "../http/app.js";
import {
  application,
  bearerSecurity,
  callerOf,
  commandContext,
  registerBearerScheme,
  requireCaller,
  settled,
} from "../http/authentication.js";
import { timestampField as timestamp } from "../http/dates.js";
import { errorResponse, errorResponses } from "../http/errors.js";
import { collectionSchema, cursorParam, INTEGER_MAX, keysetPage, limitParam } from "../http/pagination.js";
import { readModels, UNKNOWN_PARAMETERS } from "../read-api/params.js";
import { numericIdsHook, numericPathId } from "./params.js";

/**
 * Consumer key administration (admin bearer): an administrator's own API consumers, each
 * with its limits and keys. The raw key is in the issue or rotate answer once and nowhere
 * else; every answer waits for the `consumers` read model, so a new key works at once and
 * a revoked one has stopped.
 */

/** The bounds an administrator may set; the defaults are the specification's. */
export const CONSUMER_BOUNDS = {
  name: { min: 1, max: 100 },
  rateLimitPerMinute: { min: 1, max: 10_000, default: 60 },
  dailyQuota: { min: 1, max: 10_000_000, default: 10_000 },
} as const;

const READ_MODELS = ["consumers"] as const;
const TAGS = ["API consumers"];
const COLLECTION = "/api/v1/admin/api-consumers";

const apiKeySchema = z
  .object({
    keyId: z.number().int().positive().openapi({ description: "Counts 1, 2, 3… within the consumer.", example: 2 }),
    prefix: z.string().openapi({
      description: "The key's first characters (`ck_` and 10 more): enough to recognise it, nothing of its secret.",
      example: "ck_7Gq2LmX9aB",
    }),
    createdAt: timestamp("When the key was issued."),
    revokedAt: timestamp("When it was revoked (by rotation or on its own); null while active.").nullable(),
  })
  .openapi("ApiKeyMetadata", { description: "Safe metadata of a key: never the key itself or its digest." });

const consumerSchema = z
  .object({
    consumerId: z.number().int().positive().openapi({ example: 7 }),
    name: z.string().openapi({ example: "Fantasy XI" }),
    rateLimitPerMinute: z.number().int().openapi({
      description: "Requests per fixed UTC minute, shared by all the consumer's keys.",
      example: 60,
    }),
    dailyQuota: z.number().int().openapi({ description: "Requests admitted per UTC day.", example: 10_000 }),
    createdAt: timestamp("When the consumer was issued."),
    keys: z.array(apiKeySchema).openapi({ description: "Every key, revoked ones too, in key id order." }),
  })
  .openapi("ApiConsumer");

const withKeySchema = consumerSchema
  .extend({
    apiKey: z.string().openapi({
      description:
        "The new raw key, shown this once: it is stored only as a keyed digest and cannot be shown again. Send it in X-API-Key.",
      example: "ck_7Gq2LmX9aB_0u9QnVz3xq1mFh7sK2cYbR8eLwT5dJpA6gNiUoHkEvMf",
    }),
  })
  .openapi("ApiConsumerWithKey");

const bounded = (field: keyof typeof CONSUMER_BOUNDS, description: string) => {
  const { min, max } = CONSUMER_BOUNDS[field];
  return z
    .number()
    .int()
    .min(min)
    .max(max)
    .openapi({ description: `${description} ${min} to ${max}.` });
};

export const consumerIssueBody = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(CONSUMER_BOUNDS.name.min)
      .max(CONSUMER_BOUNDS.name.max)
      .openapi({ description: "Trimmed; 1 to 100 characters.", example: "Fantasy XI" }),
    rateLimitPerMinute: bounded("rateLimitPerMinute", "Requests per UTC minute,")
      .default(CONSUMER_BOUNDS.rateLimitPerMinute.default)
      .openapi({ example: 60 }),
    dailyQuota: bounded("dailyQuota", "Requests per UTC day,")
      .default(CONSUMER_BOUNDS.dailyQuota.default)
      .openapi({ example: 10_000 }),
  })
  .openapi("ApiConsumerIssue");

const consumerId = numericPathId("consumerId", "The consumer's id, a positive integer; 422 otherwise.");
const keyId = numericPathId("keyId", "The key's id within the consumer, a positive integer; 422 otherwise.");

const noStore = {
  "Cache-Control": {
    description: "`no-store`: the answer holds a raw key.",
    schema: { type: "string" as const, example: "no-store" },
  },
};
const notFound = {
  ...errorResponse(
    404,
    "NOT_FOUND: no such consumer among the caller's own (another administrator's looks the same), or no such key of it",
  ),
};

const listRoute = createRoute({
  method: "get",
  path: COLLECTION,
  tags: TAGS,
  operationId: "listApiConsumers",
  summary: "The administrator's consumers and key metadata",
  description: `The consumers the caller issued, in consumer id order, each with its limits and every key's safe metadata (never a key or its digest). Other administrators' consumers are not listed. Admin only. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  security: bearerSecurity,
  request: { query: z.object({ limit: limitParam, cursor: cursorParam }) },
  responses: {
    200: {
      description: "A page of the caller's consumers",
      content: {
        "application/json": {
          schema: collectionSchema(consumerSchema, "ApiConsumerList", "The caller's consumers, by consumer id."),
        },
      },
    },
  },
});

const issueRoute = createRoute({
  method: "post",
  path: COLLECTION,
  tags: TAGS,
  operationId: "issueApiConsumer",
  summary: "Issue a consumer and its first key",
  description: `Creates a consumer owned by the caller, with key 1. \`rateLimitPerMinute\` defaults to ${CONSUMER_BOUNDS.rateLimitPerMinute.default} and \`dailyQuota\` to ${CONSUMER_BOUNDS.dailyQuota.default}; an out-of-range, non-integer or unexpected field is 422. The raw key is in \`data.apiKey\` this once. Admin only.`,
  ...implemented,
  security: bearerSecurity,
  request: { body: { required: true, content: { "application/json": { schema: consumerIssueBody } } } },
  responses: {
    201: {
      description: "Issued; the key works at once",
      headers: {
        Location: { description: "The consumer's URI.", schema: { type: "string", example: `${COLLECTION}/7` } },
        ...noStore,
      },
      content: { "application/json": { schema: z.object({ data: withKeySchema }).openapi("ApiConsumerIssued") } },
    },
  },
});

const rotateRoute = createRoute({
  method: "post",
  path: `${COLLECTION}/{consumerId}/keys/rotate`,
  tags: TAGS,
  operationId: "rotateApiConsumerKeys",
  summary: "Rotate a consumer's keys",
  description:
    "Revokes every active key of the consumer, then issues one; the old keys stop working and the new one works as soon as this answers. The raw key is in `data.apiKey` this once. No body. Admin only; only the consumer's owner.",
  ...implemented,
  security: bearerSecurity,
  request: { params: z.object({ consumerId }) },
  responses: {
    200: {
      description: "The replacement key and the consumer's metadata",
      headers: noStore,
      content: { "application/json": { schema: z.object({ data: withKeySchema }).openapi("ApiConsumerRotated") } },
    },
    ...notFound,
    ...errorResponses(422),
  },
});

const revokeRoute = createRoute({
  method: "delete",
  path: `${COLLECTION}/{consumerId}/keys/{keyId}`,
  tags: TAGS,
  operationId: "revokeApiKey",
  summary: "Revoke one key",
  description:
    "The key stops working as soon as this answers; the consumer's other keys are untouched. Revoking a revoked key again is 204 too (nothing changes). Admin only; only the consumer's owner.",
  ...implemented,
  security: bearerSecurity,
  request: { params: z.object({ consumerId, keyId }) },
  responses: {
    204: { description: "The key is revoked" },
    ...notFound,
    ...errorResponses(422),
  },
});

/**
 * The consumer as its stream says right after a command that issued a key (a rotation racing
 * it may have revoked the key since): the one answer that shows the key must not fail
 * because the read model is late. The wait before it is for the caller's next read (the
 * list), as for every command.
 */
export async function consumerWithNewKey(deps: AppDependencies, outcome: KeyOutcome): Promise<ConsumerView> {
  const services = application(deps);
  await settled(services, outcome, READ_MODELS);
  const stream = await services.store.readStream(consumerStream(outcome.consumerId));
  const consumer = consumerFromStream(stream.filter((event) => event.revision <= outcome.nextRevision));
  if (!consumer) throw new Error(`consumer ${outcome.consumerId} has no stream after its command`);
  return consumer;
}

export function registerAdminConsumers(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  const sql = readModels(deps);
  const secret = () => secretOf(deps);
  const admin = requireCaller(deps, { admin: true });
  app.use(COLLECTION, admin);
  app.use(`${COLLECTION}/:consumerId/keys/*`, admin);

  /** Answers with the raw key, uncached, and the consumer as the command left it. */
  async function withKey<S extends 200 | 201>(c: Context, outcome: KeyOutcome, status: S) {
    const consumer = await consumerWithNewKey(deps, outcome);
    c.header("Cache-Control", "no-store");
    return c.json({ data: { ...toApi(consumer), apiKey: outcome.apiKey } }, status);
  }

  app.openapi(listRoute, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const owner = callerOf(c).account.accountId;
    const page = await keysetPage({
      scope: { operation: "listApiConsumers", inputs: {} },
      limit,
      cursor,
      key: z.tuple([z.number().int().min(1).max(INTEGER_MAX)]),
      fetch: async (after, take) =>
        (await listOwnedConsumers(sql(), owner, { after: after?.[0], take })).map((consumer) => ({
          item: toApi(consumer),
          key: [consumer.consumerId] as [number],
        })),
    });
    return c.json(page, 200);
  });

  app.openapi(issueRoute, async (c) => {
    const outcome = await issueConsumer(
      application(deps).store,
      sql(),
      secret(),
      { ownerAccountId: callerOf(c).account.accountId, settings: c.req.valid("json") },
      commandContext(c),
    );
    c.header("Location", `${COLLECTION}/${outcome.consumerId}`);
    return withKey(c, outcome, 201);
  });

  app.openapi(
    rotateRoute,
    async (c) => {
      const outcome = await rotateKeys(
        application(deps).store,
        secret(),
        { ownerAccountId: callerOf(c).account.accountId, consumerId: c.req.valid("param").consumerId },
        commandContext(c),
      );
      return withKey(c, outcome, 200);
    },
    numericIdsHook,
  );

  app.openapi(
    revokeRoute,
    async (c) => {
      const outcome = await revokeKey(
        application(deps).store,
        { ownerAccountId: callerOf(c).account.accountId, ...c.req.valid("param") },
        commandContext(c),
      );
      await settled(application(deps), outcome, READ_MODELS);
      return c.body(null, 204);
    },
    numericIdsHook,
  );
}

/** The API's view of a consumer: safe metadata only (the owner is the caller; no digest is ever read here). */
const toApi = (consumer: ConsumerView) => ({
  consumerId: consumer.consumerId,
  name: consumer.name,
  rateLimitPerMinute: consumer.rateLimitPerMinute,
  dailyQuota: consumer.dailyQuota,
  createdAt: consumer.createdAt.toISOString(),
  keys: consumer.keys.map((k) => ({
    keyId: k.keyId,
    prefix: k.prefix,
    createdAt: k.createdAt.toISOString(),
    revokedAt: k.revokedAt?.toISOString() ?? null,
  })),
});
