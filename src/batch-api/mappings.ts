import { createRoute, z } from "@hono/zod-openapi";
import { visibleTo } from "../batches/access.js";
import { findBatch } from "../batches/queries.js";
import { mapBatchReferences } from "../commands/batches/map-references.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { application, bearerSecurity, callerOf, commandContext, settled } from "../http/authentication.js";
import { errorEnvelopeSchema } from "../http/errors.js";
import { readModels } from "../read-api/params.js";
import { batchReferenceParams, batchSchema, toApi, unseenBatch } from "./schemas.js";

/**
 * Resolution of a staged batch (docs/batches.md, "Resolution"): its sender or an
 * administrator chooses what each unresolved or ambiguous reference names, and the batch is
 * validated again with the choices.
 */

const mappingRequestSchema = z
  .strictObject({
    mappings: z
      .array(
        z.strictObject({
          referencePath: z.string().min(1).max(300).openapi({
            description: "A requirement's `referencePath`, as the report shows it.",
            example: "fixtures.0.innings.1.events.37.striker",
          }),
          file: z.string().min(1).max(255).optional().openapi({
            description: "The `file` of the report item holding the requirement, in a package of several files.",
            example: "week-3.json",
          }),
          candidate: z.string().min(1).max(300).openapi({
            description:
              "A `candidateReference` of the requirement, or any entity of its type as `app:<type>:<id>` (a reference with no candidate has none to copy).",
            example: "app:participant:ba607b88",
          }),
        }),
      )
      .min(1)
      .max(500),
  })
  .openapi("BatchReferenceMappings");

const mapRoute = createRoute({
  method: "post",
  path: "/api/v1/batches/{batchReference}/mappings",
  tags: ["Batches"],
  operationId: "mapBatchReferences",
  summary: "Choose what a staged batch's unresolved or ambiguous references name",
  description:
    "Maps references the report lists as requirements (`UNRESOLVED_REFERENCE`, `AMBIGUOUS_REFERENCE`) of a `staged` batch, each to a candidate of its type. Each is checked against the package first: it must name a requirement, a candidate of the reference's type (a fixture, season or participant), and one its scope holds (a batter in the batting side's squad, a fixture or season of the batch's competition); any that does not is refused and nothing is recorded. The mappings are then recorded on the batch's stream, and the batch is validated again with every mapping so far, asynchronously: the answer shows it `validating`, and its status and report follow as its items are judged again. A later mapping of a reference replaces the earlier one. The batch's sender (while it may send for the competition) or an administrator in its competition scope; anyone else is refused as for a batch they cannot see.",
  ...implemented,
  security: bearerSecurity,
  request: {
    params: batchReferenceParams,
    body: { required: true, content: { "application/json": { schema: mappingRequestSchema } } },
  },
  responses: {
    202: {
      description: "Recorded: the batch, being validated again",
      content: { "application/json": { schema: z.object({ data: batchSchema }) } },
    },
    ...unseenBatch,
    409: {
      description:
        "BATCH_NOT_STAGED: the batch is not staged (still validating, validated, rejected or published); nothing was recorded.",
      content: { "application/json": { schema: errorEnvelopeSchema } },
    },
    422: {
      description:
        "VALIDATION_FAILED: the body is malformed, or a mapping names no requirement of the batch (REQUIREMENT_NOT_FOUND on `mappings.N.referencePath`), a candidate that is unreadable (INVALID_FIELD), of another type (MAPPING_TYPE_MISMATCH) or outside the reference's scope (MAPPING_NOT_APPLICABLE on `mappings.N.candidate`); nothing was recorded.",
      content: { "application/json": { schema: errorEnvelopeSchema } },
    },
  },
});

export function registerMappings(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  app.openapi(mapRoute, async (c) => {
    const { account } = callerOf(c);
    const batch = visibleTo(account, await findBatch(sql(), c.req.valid("param").batchReference));
    const services = application(deps);
    const outcome = await mapBatchReferences(
      { store: services.store, sql: sql() },
      { batchReference: batch.batchReference, account, mappings: c.req.valid("json").mappings },
      { ...commandContext(c), actor: account.accountId },
    );
    await settled(services, outcome, ["batches"]);
    const now = await findBatch(sql(), batch.batchReference);
    return c.json({ data: toApi(now ?? batch) }, 202);
  });
}
