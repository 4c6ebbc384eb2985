import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Account } from "../../streams/account-state.js";
import { visibleTo } from "../batches/access.js";
import { findBatch } from "../batches/queries.js";
import { mapBatchReferences, resubmitBatchItems } from "../commands/batches/amendments.js";
import { makeCanonicalFixture, recordCanonicalFixture } from "../commands/batches/canonical-fixtures.js";
import type { CommandContext, HandleResult } from "../commands/handle.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { application, bearerSecurity, callerOf, commandContext, settled } from "../http/authentication.js";
import { errorEnvelopeSchema } from "../http/errors.js";
import { readModels } from "../read-api/params.js";
import { FIXTURE_READ_MODELS } from "../submission-api/submissions.js";
import { batchReferenceParams, batchSchema, toApi, unseenBatch } from "./schemas.js";

/**
 * What may change in a judged batch before publication (docs/batches.md, "Resolution" and
 * "Resubmission"): its sender or an administrator chooses what each unresolved or ambiguous
 * reference of a staged batch names; its sender replaces items that cannot be published as
 * they are. Either way the batch is validated again, asynchronously.
 */

/** The answer of a change after which the batch is validated again. */
const validatingAgain = {
  202: {
    description: "Recorded: the batch, being validated again",
    content: { "application/json": { schema: z.object({ data: batchSchema }) } },
  },
};

/** A requirement's place in a batch's report, and the report file holding it, as the report names them. */
const referencePath = z.string().min(1).max(300);
const reportFile = z.string().min(1).max(255);

/** A refusal: what its codes mean, in the error envelope. */
const refusal = (description: string) => ({
  description,
  content: { "application/json": { schema: errorEnvelopeSchema } },
});

export const mappingRequestSchema = z
  .strictObject({
    mappings: z
      .array(
        z.strictObject({
          referencePath: referencePath.openapi({
            description: "A requirement's `referencePath`, as the report shows it.",
            example: "fixtures.0.innings.1.events.37.striker",
          }),
          file: reportFile.optional().openapi({
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
    ...validatingAgain,
    ...unseenBatch,
    409: refusal(
      "BATCH_NOT_STAGED: the batch is not staged (still validating, validated, rejected or published); nothing was recorded.",
    ),
    422: refusal(
      "VALIDATION_FAILED: the body is malformed, or a mapping names no requirement of the batch (REQUIREMENT_NOT_FOUND on `mappings.N.referencePath`), a candidate that is unreadable (INVALID_FIELD), of another type (MAPPING_TYPE_MISMATCH) or outside the reference's scope (MAPPING_NOT_APPLICABLE on `mappings.N.candidate`), or a reference mapped twice (DUPLICATE_MAPPING); nothing was recorded.",
    ),
  },
});

export const resubmissionRequestSchema = z
  .strictObject({
    items: z
      .array(
        z.strictObject({
          ordinal: z
            .number()
            .int()
            .min(0)
            .openapi({ description: "The report ordinal of the item replaced.", example: 37 }),
          event: z.record(z.string(), z.unknown()).openapi({
            description:
              "The replacement: a delivery in the package's shape (docs/batches.md, \"The package\"), judged in the item's place, in its fixture and innings.",
          }),
        }),
      )
      .min(1)
      .max(1000),
  })
  .openapi("BatchResubmission");

const resubmitRoute = createRoute({
  method: "post",
  path: "/api/v1/batches/{batchReference}/resubmissions",
  tags: ["Batches"],
  operationId: "resubmitBatchItems",
  summary: "Replace items of a batch that cannot be published as they are",
  description:
    "The batch's sender sends replacements for items rejected by validation or by a reviewer, conflicting, or unresolved (a reference no mapping can reach, such as a person named ambiguously in a fixture not made yet, is named again), each a delivery in the package's shape for the item of that ordinal: it takes the item's place (its fixture and innings, its ordinal in the report) and is validated like the rest, asynchronously, in the batch's next round of validation; the answer shows the batch `validating`. A replaced item's review no longer stands: it is reviewed again once accepted. Only its sender, while they may send for the batch's competition; anyone else is refused as for a batch they cannot see.",
  ...implemented,
  security: bearerSecurity,
  request: {
    params: batchReferenceParams,
    body: { required: true, content: { "application/json": { schema: resubmissionRequestSchema } } },
  },
  responses: {
    ...validatingAgain,
    ...unseenBatch,
    409: refusal(
      "BATCH_NOT_RESUBMITTABLE: the batch is still validating or is published. ITEM_NOT_RESUBMITTABLE: an item named can be published as it is (accepted and not rejected in review, or a duplicate), each named in the details; nothing was recorded.",
    ),
    422: refusal(
      "VALIDATION_FAILED: the body is malformed, or names an ordinal the batch has not (ITEM_NOT_FOUND) or one twice (DUPLICATE_ITEM), on `items.N.ordinal`; nothing was recorded.",
    ),
  },
});

export const canonicalFixtureRequestSchema = z
  .strictObject({
    referencePath: referencePath.openapi({
      description: "The fixture's requirement `referencePath` (`fixtures.N`), as the report shows it.",
      example: "fixtures.0",
    }),
    file: reportFile.optional().openapi({
      description: "The `file` of the report items of that fixture, in a package of several files.",
      example: "week-3.json",
    }),
  })
  .openapi("CanonicalFixtureRequest");

const canonicalFixtureRoute = createRoute({
  method: "post",
  path: "/api/v1/batches/{batchReference}/canonical-fixtures",
  tags: ["Batches"],
  operationId: "createCanonicalFixture",
  summary: "Make the fixture a staged 1.1 batch names but the competition does not have",
  description:
    "For a fixture of a `staged` 1.1 batch that the competition has none of (its requirement `UNRESOLVED_REFERENCE` on `fixtures.N`): checks the package's fixture again and makes the canonical fixture from its context and proposal (dates, match type, team type, gender, balls per over, outcome, source version and revision), in the batch's competition, its season and teams as they already exist, its innings as the package's innings say (each batting team one of the two), its squads everyone its deliveries name (found among those who have played for the team, else everyone; a substitute fielder is in no squad); no venue, as the proposal names none. Teams, participants and seasons must exist already: any that does not, or that several match, is a 422 naming each. Then the batch records the fixture for the reference (who made it, for which batch and reference path) and is validated again with it, asynchronously. Publishes no delivery. A fixture from a Cricsheet source (`cricsheet:fixture:<match>`) takes the id the Cricsheet importer gives that match, so a later import revises it. Repeating the request after the fixture was made records it for the batch again. An administrator in the batch's competition scope.",
  ...implemented,
  security: bearerSecurity,
  request: {
    params: batchReferenceParams,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: canonicalFixtureRequestSchema,
        },
      },
    },
  },
  responses: {
    201: {
      description: "Made: the fixture, and the batch being validated again",
      headers: { Location: { description: "The fixture's path.", schema: { type: "string" } } },
      content: {
        "application/json": {
          schema: z.object({
            data: z
              .object({
                fixtureId: z.string().openapi({ example: "2b1f6c1e-0c53-5b0d-9c64-5d8a0f6c2e71" }),
                links: z.object({
                  fixture: z.string().openapi({ example: "/api/v1/fixtures/2b1f6c1e-0c53-5b0d-9c64-5d8a0f6c2e71" }),
                }),
                batch: batchSchema,
              })
              .openapi("CanonicalFixture"),
          }),
        },
      },
    },
    ...unseenBatch,
    409: refusal(
      "BATCH_NOT_STAGED: the batch is not staged. EVENT_CONFLICT: a fixture of this source id exists in another competition. Nothing was recorded.",
    ),
    422: refusal(
      "VALIDATION_FAILED: the body is malformed; the batch has no fixture to resolve there (REQUIREMENT_NOT_FOUND) or several match it (REFERENCE_AMBIGUOUS: map it); or the fixture cannot be made: not a 1.1 fixture with its proposal (PROPOSAL_REQUIRED), faults of its own (FIXTURE_INVALID), or a season, team, batting team, winner or participant that does not exist or is ambiguous (SEASON_REQUIRED, SEASON_UNRESOLVED, TEAM_UNRESOLVED, TEAM_AMBIGUOUS, DUPLICATE_TEAM, BATTING_TEAM_UNRESOLVED, INNINGS_REPEATED, WINNER_UNRESOLVED, PARTICIPANT_UNRESOLVED, PARTICIPANT_AMBIGUOUS…), each at its path in the package; nothing was recorded.",
    ),
  },
});

/**
 * Makes the canonical fixture a staged batch's reference asks for and records it for the
 * batch, which is then validated again: once the fixture's read models show it, so the
 * batch is judged with it.
 */
export async function canonicalFixtureFor(
  deps: AppDependencies,
  {
    batchReference,
    account,
    request,
  }: { batchReference: string; account: Account; request: { referencePath: string; file?: string | undefined } },
  context: CommandContext,
): Promise<HandleResult & { fixtureId: string }> {
  const stores = { store: application(deps).store, sql: readModels(deps)() };
  const made = await makeCanonicalFixture(stores, { batchReference, account, request }, context);
  await settled(application(deps), made.result, FIXTURE_READ_MODELS);
  const recorded = await recordCanonicalFixture(stores, { batchReference, account, ...made }, context);
  return { ...recorded, fixtureId: made.fixtureId };
}

export function registerAmendments(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);

  /** Records a change of the batch as `change` says; the batch as its read model then shows it, and what the change returned. */
  const amend = async <Outcome extends HandleResult>(
    c: Context,
    reference: string,
    change: (batchReference: string, account: Account, context: CommandContext) => Promise<Outcome>,
  ) => {
    const { account } = callerOf(c);
    const batch = visibleTo(account, await findBatch(sql(), reference));
    const services = application(deps);
    const outcome = await change(batch.batchReference, account, { ...commandContext(c), actor: account.accountId });
    await settled(services, outcome, ["batches"]);
    return { batch: toApi((await findBatch(sql(), batch.batchReference)) ?? batch), outcome };
  };
  const stores = () => ({ store: application(deps).store, sql: sql() });

  app.openapi(mapRoute, async (c) => {
    const { mappings } = c.req.valid("json");
    const { batch } = await amend(c, c.req.valid("param").batchReference, (batchReference, account, context) =>
      mapBatchReferences(stores(), { batchReference, account, mappings }, context),
    );
    return c.json({ data: batch }, 202);
  });

  app.openapi(canonicalFixtureRoute, async (c) => {
    const request = c.req.valid("json");
    const { batch, outcome } = await amend(c, c.req.valid("param").batchReference, (batchReference, account, context) =>
      canonicalFixtureFor(deps, { batchReference, account, request }, context),
    );
    const fixture = `/api/v1/fixtures/${outcome.fixtureId}`;
    return c.json({ data: { fixtureId: outcome.fixtureId, links: { fixture }, batch } }, 201, { Location: fixture });
  });

  app.openapi(resubmitRoute, async (c) => {
    const { items } = c.req.valid("json");
    const { batch } = await amend(c, c.req.valid("param").batchReference, (batchReference, account, context) =>
      resubmitBatchItems(stores(), { batchReference, account, items }, context),
    );
    return c.json({ data: batch }, 202);
  });
}
