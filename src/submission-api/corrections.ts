import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { mayCorrectIn } from "../../streams/account-state.js";
import { fixtureCatalogue, fixtureStream } from "../../streams/fixture.js";
import type { FixtureState } from "../../streams/fixture-state.js";
import { DeliveryNotFound } from "../commands/submissions/errors.js";
import { correct } from "../commands/submissions/handlers.js";
import type { Sql } from "../db/database.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import {
  application,
  bearerSecurity,
  callerOf,
  commandContext,
  registerBearerScheme,
  requireCaller,
  settled,
} from "../http/authentication.js";
import { ApiError, errorEnvelopeSchema, errorResponses } from "../http/errors.js";
import { jsonBody } from "../http/json-body.js";
import { pathId, readModels } from "../read-api/params.js";
import { ledgerFacts, loadFixture } from "../submissions/facts.js";
import { deliveryHistory } from "../submissions/history.js";
import { correctionRequestSchema, ledgerDelivery } from "../submissions/schema.js";
import { refreshedScopes } from "../submissions/scopes.js";
import { checkCorrection } from "../submissions/validate.js";
import { correctionResultSchema, historySchema } from "./schemas.js";
import { FIXTURE_READ_MODELS } from "./submissions.js";

/**
 * Corrections of accepted deliveries and their audit history: an admin anywhere, a
 * submitter within their competitions. A correction is a new immutable revision; the
 * history replays the fixture's stream.
 */

const eventIdParam = pathId(
  "eventId",
  "The delivery's event id (the submitter's UUID, kept by every revision).",
  "0b3f9a52-8c1e-4e59-a8e5-1f0c2d9b7a41",
);
const ACCESS_NOTE =
  "Admins may act on any fixture; submitters only on fixtures of their granted competitions (403 otherwise, as for viewers).";

const correctRoute = createRoute({
  method: "put",
  path: "/api/v1/submissions/events/{eventId}",
  tags: ["Submissions"],
  operationId: "correctEvent",
  summary: "Correct an accepted delivery",
  description: `Replaces the live state of a delivery with a new immutable revision (revision + 1) and answers with the statistics scopes the change touches: the fixture, and the season, competition and career aggregates of everyone in the old or new state (not for super overs, which never count in player aggregates). The sequence is inherited. A replacement equal to the live state appends nothing and answers \`changed: false\`, so repeating a PUT is safe. The fixture's version advances, so cached statistics of the old version are never served again. Problems are reported as for submissions (422, fields under \`event.\`); a ball position another live delivery holds is 409 EVENT_CONFLICT. ${ACCESS_NOTE}`,
  ...implemented,
  security: bearerSecurity,
  request: {
    params: z.object({ eventId: eventIdParam }),
    body: {
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/CorrectionRequest" } } },
    },
  },
  responses: {
    200: {
      description: "The live revision and the scopes to refresh",
      content: { "application/json": { schema: z.object({ data: correctionResultSchema }) } },
    },
    ...errorResponses(400, 401, 403, 404),
    409: {
      description: "EVENT_CONFLICT: the new ball position is held by another live delivery; nothing was stored.",
      content: { "application/json": { schema: errorEnvelopeSchema } },
    },
    ...errorResponses(413, 422, 500),
  },
});

const historyRoute = createRoute({
  method: "get",
  path: "/api/v1/submissions/events/{eventId}/history",
  tags: ["Submissions"],
  operationId: "getEventHistory",
  summary: "Audit history of a delivery",
  description: `How the delivery was recorded (by whom, when, and its position in the original submission) and every correction since, oldest first: the previous and replacement delivery ids (the ids of the events holding each revision), revision numbers, requester, time, reason, both complete states, the batch item (null for a direct correction), the review (null for a direct correction) and the scopes it refreshed. ${ACCESS_NOTE}`,
  ...implemented,
  security: bearerSecurity,
  request: { params: z.object({ eventId: eventIdParam }) },
  responses: {
    200: {
      description: "The audit history",
      content: { "application/json": { schema: z.object({ data: historySchema }) } },
    },
    ...errorResponses(401, 403, 404, 500),
  },
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function registerCorrections(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  app.openAPIRegistry.register("CorrectionRequest", correctionRequestSchema);
  const sql = readModels(deps);
  app.use("/api/v1/submissions/events/:eventId", requireCaller(deps));
  app.use("/api/v1/submissions/events/:eventId/history", requireCaller(deps));

  /**
   * The delivery the path names and its fixture, once the caller may act on it: viewers are
   * refused before anything is looked up, submitters once the fixture's competition is known.
   */
  async function target(c: Context): Promise<{ eventId: string; fixtureId: string; fixture: FixtureState }> {
    const { account } = callerOf(c);
    if (account.role !== "admin" && account.role !== "submitter")
      throw new ApiError("FORBIDDEN", "Only a submitter or an administrator may do this");
    const eventId = (c.req.param("eventId") as string).toLowerCase();
    const fixtureId = UUID.test(eventId) ? await fixtureOf(sql(), eventId) : undefined;
    if (fixtureId === undefined) throw new DeliveryNotFound(eventId);
    const fixture = await loadFixture(application(deps).store, fixtureId);
    const competitionId = fixture.scheduled?.competitionId;
    if (!fixture.deliveries.has(eventId) || competitionId === undefined) throw new DeliveryNotFound(eventId);
    if (!mayCorrectIn(account, competitionId))
      throw new ApiError("FORBIDDEN", "This fixture's competition is outside your submitter scope");
    return { eventId, fixtureId, fixture };
  }

  app.openapi(correctRoute, async (c) => {
    const { eventId, fixtureId, fixture } = await target(c);
    const services = application(deps);
    const body = await jsonBody(c);
    const checked = checkCorrection(body, fixtureId, await ledgerFacts(services.store, sql(), body, fixture));
    if (!checked.ok)
      throw new ApiError("VALIDATION_FAILED", "The correction is invalid; nothing was stored", checked.details, 422);
    const { reason, event } = checked.value;
    const delivery = ledgerDelivery(event);
    const outcome = await correct(
      services.store,
      { fixtureId, eventId, reason, delivery },
      { ...commandContext(c), actor: callerOf(c).account.accountId },
    );
    await settled(services, outcome, FIXTURE_READ_MODELS);
    // The live revision the decision replaced (or kept), not the one `target` read: a racing
    // correction may have been stored in between, and the answer must describe this change.
    const { decidedOn } = outcome;
    const previous = decidedOn.deliveries.get(eventId) as NonNullable<ReturnType<typeof decidedOn.deliveries.get>>;
    const appended = outcome.events[0]?.data as { revision: number } | undefined;
    return c.json(
      {
        data: {
          eventId,
          fixtureId,
          revision: appended?.revision ?? previous.revision,
          previousRevision: previous.revision,
          changed: appended !== undefined,
          refreshedScopes: refreshedScopes(fixtureId, decidedOn, [previous.state, delivery]),
        },
      },
      200,
    );
  });

  app.openapi(historyRoute, async (c) => {
    const { eventId, fixtureId } = await target(c);
    // Parsed through the catalogue: the stored JSON does not keep the schema's key order.
    const stream = (await application(deps).store.readStream(fixtureStream(fixtureId))).map((e) => ({
      ...e,
      ...fixtureCatalogue.event(e),
    }));
    const history = deliveryHistory(fixtureId, stream, eventId);
    if (!history) throw new DeliveryNotFound(eventId);
    const names = await accountNames(sql(), [
      history.recorded.recordedBy,
      ...history.corrections.map((entry) => entry.requestedBy),
    ]);
    const actor = (id: string) => ({ id, name: names.get(id) ?? null });
    return c.json(
      {
        data: {
          ...history,
          recorded: { ...history.recorded, recordedBy: actor(history.recorded.recordedBy) },
          corrections: history.corrections.map((entry) => ({ ...entry, requestedBy: actor(entry.requestedBy) })),
        },
      },
      200,
    );
  });
}

async function fixtureOf(sql: Sql, eventId: string): Promise<string | undefined> {
  const [row] = await sql<{ fixture_id: string }[]>`select fixture_id from delivery where event_id = ${eventId}::uuid`;
  return row?.fixture_id;
}

async function accountNames(sql: Sql, ids: string[]): Promise<Map<string, string>> {
  const rows = await sql<{ account_id: string; display_name: string }[]>`
    select account_id, display_name from account where account_id = any(${[...new Set(ids)]})`;
  return new Map(rows.map((r) => [r.account_id, r.display_name]));
}
