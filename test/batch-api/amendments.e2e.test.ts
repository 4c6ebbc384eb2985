import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BatchValidator } from "../../src/batches/validator.js";
import { createLogger } from "../../src/http/logging.js";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { batchStream } from "../../streams/batch.js";
import { expectError, expectUnauthorized, type Person } from "../support/account-api.js";
import { type ApiBatch, aManifest, aPackageOf, type Part, packageEventOf, sendParts } from "../support/batches.js";
import type { ApiResponse } from "../support/contract.js";
import type { FixtureBuilder } from "../support/cricket-builders.js";
import { stagedBatches } from "../support/staged-batches.js";
import { openSubmissionApi, type SubmissionApi, type SubmittedEvent, validEvents } from "../support/submissions.js";

/**
 * What may change in a judged batch, through HTTP. References validation could not resolve
 * (a name nobody in the squad goes by, a name two of them go by, a fixture the competition
 * does not know by that source id) are mapped by the sender or an administrator, each
 * mapping checked against the package before anything is recorded; items that cannot be
 * published are replaced by the sender. Either way the batch is validated again.
 */

type Requirement = {
  code: string;
  referencePath: string;
  referenceType?: string;
  candidates: { sourceId: string; label: string; candidateReference: string }[];
};
type Item = {
  ordinal: number;
  file?: string;
  eventId: string | null;
  outcome: string;
  requirements: Requirement[];
  review: { decision: string } | null;
};
type Report = { data: Item[]; summary: { status: string; rules: { code: string; count: number }[] } };
type PackageEvents = { innings: { events: Record<string, unknown>[] }[] }[];

let api: SubmissionApi;
let validator: BatchValidator;
beforeAll(async () => {
  api = await openSubmissionApi();
  validator = new BatchValidator({ sql: api.db.sql, store: api.world.store, logger: createLogger("silent") });
}, 60_000);
afterAll(() => api?.close());

const WHERE = "fixtures.0.innings.0.events";

const { aStagedBatch, aBatchOfAnUnknownFixture, validated, statusOf } = stagedBatches(() => ({ api, validator }));

/** An accepted change: the batch answered `validating`, then validated again. */
async function validatedAgain(res: ApiResponse) {
  expect(res.status, res.text).toBe(202);
  expect((res.body as { data: ApiBatch }).data.status).toBe("validating");
  await validator.drain();
  await api.world.catchUp();
}

async function reportOf(path: string, by: Person): Promise<Report> {
  const res = await api.api.get(`${path}/report`, { token: by.token });
  expect(res.status, res.text).toBe(200);
  return res.body as Report;
}

const map = (path: string, mappings: unknown[], by: Person) =>
  api.api.post(`${path}/mappings`, { mappings }, { token: by.token });
const revisionOf = async (batchReference: string) =>
  (await api.world.store.readStream(batchStream(batchReference))).length;

describe("mapping a staged batch's references", () => {
  it("resolves an ambiguous and an unresolved person, then validates the batch again", async () => {
    const { submitter, batch, second, third, path } = await aStagedBatch();
    expect(batch).toMatchObject({ status: "staged", counts: { accepted: 2, unresolved: 2 } });
    const before = await reportOf(path, submitter);
    const [ambiguous] = before.data[1]?.requirements ?? [];
    expect(ambiguous).toMatchObject({
      code: "AMBIGUOUS_REFERENCE",
      referencePath: `${WHERE}.1.striker`,
      referenceType: "participant",
    });
    expect(ambiguous?.candidates).toHaveLength(2);
    expect(before.data[2]?.requirements).toEqual([
      expect.objectContaining({ code: "UNRESOLVED_REFERENCE", referencePath: `${WHERE}.2.striker`, candidates: [] }),
    ]);
    const chosen = ambiguous?.candidates.find((c) => c.sourceId === `app:participant:${second.strikerId}`);

    const res = await map(
      path,
      [
        { referencePath: `${WHERE}.1.striker`, candidate: chosen?.candidateReference },
        { referencePath: `${WHERE}.2.striker`, candidate: `app:participant:${third.strikerId}` },
      ],
      submitter,
    );
    await validatedAgain(res);

    expect(await statusOf(batch.batchReference, submitter)).toMatchObject({
      status: "validated",
      progress: { itemsDone: 4, itemsTotal: 4 },
      counts: { accepted: 4, unresolved: 0 },
    });
    const after = await reportOf(path, submitter);
    expect(after.data.map((i) => [i.outcome, i.requirements.length])).toEqual(Array(4).fill(["accepted", 0]));
    expect(after.summary.rules).toEqual([]);
    const types = (await api.world.store.readStream(batchStream(batch.batchReference))).map((e) => e.type);
    expect(types.slice(types.indexOf("BatchReferencesMapped"))).toEqual([
      "BatchReferencesMapped",
      "BatchValidationStarted",
      "BatchItemsJudged",
      "BatchValidated",
    ]);
    // a validated batch takes no more mappings
    expectError(
      await map(path, [{ referencePath: `${WHERE}.1.striker`, candidate: chosen?.candidateReference }], submitter),
      409,
      "BATCH_NOT_STAGED",
    );
  });

  it("refuses a mapping that names no requirement, an unreadable candidate, one of another type or outside the squad, and records nothing", async () => {
    const { fixture, submitter, batch, third, path } = await aStagedBatch();
    const bowler = fixture.innings[0]?.bowling.players[0]?.id as string;
    const revision = await revisionOf(batch.batchReference);
    const refused = await map(
      path,
      [
        { referencePath: `${WHERE}.0.striker`, candidate: `app:participant:${third.strikerId}` },
        { referencePath: `${WHERE}.2.striker`, candidate: "not a reference at all" },
        { referencePath: `${WHERE}.1.striker`, candidate: `app:season:${fixture.season.id}` },
        { referencePath: `${WHERE}.1.striker`, candidate: `app:participant:${third.strikerId}` },
      ],
      submitter,
    );
    expectError(refused, 422, "VALIDATION_FAILED");
    const details = (refused.body as { error: { details: { code: string; field: string }[] } }).error.details;
    expect(details.map((d) => [d.code, d.field])).toEqual([
      ["REQUIREMENT_NOT_FOUND", "mappings.0.referencePath"],
      ["INVALID_FIELD", "mappings.1.candidate"],
      ["MAPPING_TYPE_MISMATCH", "mappings.2.candidate"],
      ["DUPLICATE_MAPPING", "mappings.3.referencePath"],
    ]);
    // a fielder of the other side is no striker of this innings
    const outside = await map(
      path,
      [{ referencePath: `${WHERE}.2.striker`, candidate: `app:participant:${bowler}` }],
      submitter,
    );
    expectError(outside, 422, "VALIDATION_FAILED");
    expect((outside.body as { error: { details: { code: string; field: string }[] } }).error.details).toEqual([
      expect.objectContaining({ code: "MAPPING_NOT_APPLICABLE", field: "mappings.0.candidate" }),
    ]);
    expectError(await map(path, [], submitter), 422, "VALIDATION_FAILED");
    expect(await revisionOf(batch.batchReference)).toBe(revision);
    expect(await statusOf(batch.batchReference, submitter)).toMatchObject({ status: "staged" });
  });

  it("maps a fixture the competition does not know by the package's source id", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const submitter = await api.aSubmitter(api.admin, fixture.season.competition.id);
    const body = aPackageOf(fixture, validEvents(fixture, 2));
    const unknown = { ...(body.fixtures[0] as unknown as object), sourceId: "cricsheet:fixture:999999" };
    const batch = await validated({ ...body, fixtures: [unknown] }, submitter);
    expect(batch.status).toBe("staged");
    const path = `/api/v1/batches/${batch.batchReference}`;
    const res = await map(path, [{ referencePath: "fixtures.0", candidate: `app:fixture:${fixture.id}` }], submitter);
    await validatedAgain(res);
    expect(await statusOf(batch.batchReference, submitter)).toMatchObject({
      status: "validated",
      counts: { accepted: 2 },
    });
  });

  it("names a reference of a package of several files by its file and its path there", async () => {
    const fixture: FixtureBuilder = await api.aFixtureToSubmitTo();
    const submitter = await api.aSubmitter(api.admin, fixture.season.competition.id);
    const events = validEvents(fixture, 3);
    const { fixtures, ...head } = aPackageOf(fixture, events);
    const packageEvents = (fixtures as unknown as PackageEvents)[0]?.innings[0]?.events ?? [];
    packageEvents[0] = { ...packageEvents[0], bowler: { context: { name: "Nobody Atall" } } };
    const parts: Part[] = [
      { path: "a.json", content: JSON.stringify({ fixtures: [] }) },
      { path: "weeks/b.json", content: JSON.stringify({ fixtures }) },
    ];
    const batch = await validated(aManifest(head, parts), submitter, (body, token) =>
      sendParts(api.api, body, parts, { token }),
    );
    const path = `/api/v1/batches/${batch.batchReference}`;
    const report = await reportOf(path, submitter);
    expect(report.data[0]).toMatchObject({ file: "weeks/b.json", outcome: "unresolved" });
    const candidate = `app:participant:${events[0]?.bowlerId}`;
    const referencePath = `${WHERE}.0.bowler`;
    // the path alone names nothing: a.json has no such reference
    expect((await map(path, [{ referencePath, file: "a.json", candidate }], submitter)).status).toBe(422);
    const res = await map(path, [{ referencePath, file: "weeks/b.json", candidate }], submitter);
    await validatedAgain(res);
    expect((await statusOf(batch.batchReference, submitter)).status).toBe("validated");
  });

  it("lets the sender name an unresolved person again instead, by resubmitting the item", async () => {
    const { fixture, submitter, third, path } = await aStagedBatch();
    const res = await api.api.post(
      `${path}/resubmissions`,
      { items: [{ ordinal: 2, event: packageEventOf(fixture, third) }] },
      { token: submitter.token },
    );
    await validatedAgain(res);
    const items = (await reportOf(path, submitter)).data;
    expect(items.map((i) => i.outcome)).toEqual(["accepted", "unresolved", "accepted", "accepted"]);
  });

  it("is the sender's or an administrator's: another submitter, a viewer, an API key and no token are refused", async () => {
    const { fixture, batch, third, path } = await aStagedBatch();
    const mapping = [{ referencePath: `${WHERE}.2.striker`, candidate: `app:participant:${third.strikerId}` }];
    const other = await api.aSubmitter(api.admin, fixture.season.competition.id);
    const viewer = await api.signIn();
    const revision = await revisionOf(batch.batchReference);
    expectError(await map(path, mapping, other), 403, "FORBIDDEN");
    expectError(await map(path, mapping, viewer), 403, "FORBIDDEN");
    expectUnauthorized(await api.api.post(`${path}/mappings`, { mappings: mapping }));
    const apiKey = await api.anApiKey(api.admin);
    expectUnauthorized(
      await api.api.post(`${path}/mappings`, { mappings: mapping }, { headers: { "x-api-key": apiKey } }),
    );
    expect(await revisionOf(batch.batchReference)).toBe(revision);
    // an administrator (every competition is in an administrator's scope) may
    const res = await map(path, mapping, api.admin);
    expect(res.status, res.text).toBe(202);
  });
});

describe("resubmitting items that cannot be published", () => {
  /** Four deliveries, the third with a ball label of another over: validated, item 2 rejected. */
  async function aValidatedBatch() {
    const fixture = await api.aFixtureToSubmitTo();
    const submitter = await api.aSubmitter(api.admin, fixture.season.competition.id);
    const events = validEvents(fixture, 4);
    const body = aPackageOf(fixture, events);
    const packageEvents = (body.fixtures as unknown as PackageEvents)[0]?.innings[0]?.events ?? [];
    packageEvents[2] = { ...packageEvents[2], ballLabel: "9.1" };
    const batch = await validated(body, submitter);
    return { fixture, submitter, events, batch, path: `/api/v1/batches/${batch.batchReference}` };
  }
  const review = (path: string, items: number[], decision: string) =>
    api.api.post(`${path}/reviews`, { decision, items, reason: "Checked" }, { token: api.admin.token });
  const resubmit = (path: string, items: unknown[], by: Person) =>
    api.api.post(`${path}/resubmissions`, { items }, { token: by.token });

  it("replaces an item validation rejected and one a reviewer rejected; they are judged again in their places and published", async () => {
    const { fixture, submitter, events, batch, path } = await aValidatedBatch();
    expect(batch).toMatchObject({ status: "validated", counts: { accepted: 3, rejected: 1 } });
    expect((await review(path, [0, 3], "approved")).status).toBe(200);
    expect((await review(path, [1], "rejected")).status).toBe(200);

    const [, second, third] = events as [SubmittedEvent, SubmittedEvent, SubmittedEvent];
    const fixedSecond = { ...second, eventId: randomUUID(), runs: { offBat: 2, extras: 0, total: 2 } };
    const res = await resubmit(
      path,
      [
        { ordinal: 2, event: packageEventOf(fixture, third) },
        { ordinal: 1, event: packageEventOf(fixture, fixedSecond) },
      ],
      submitter,
    );
    await validatedAgain(res);

    expect(await statusOf(batch.batchReference, submitter)).toMatchObject({
      status: "validated",
      counts: { accepted: 4, rejected: 0 },
      // the replaced item's rejection no longer stands; the others' approvals do
      review: { approved: 2, rejected: 0, undecided: 2 },
    });
    const report = await reportOf(path, submitter);
    expect(report.data.map((i) => [i.ordinal, i.outcome, i.eventId, i.review?.decision ?? null])).toEqual([
      [0, "accepted", events[0]?.eventId, "approved"],
      [1, "accepted", fixedSecond.eventId, null],
      [2, "accepted", third.eventId, null],
      [3, "accepted", events[3]?.eventId, "approved"],
    ]);

    expect((await review(path, [1, 2], "approved")).status).toBe(200);
    const published = await api.api.post(`${path}/publication`, undefined, { token: api.admin.token });
    expect(published.status, published.text).toBe(200);
    expect((published.body as { data: { status: string; published: number } }).data).toMatchObject({
      status: "published",
      published: 4,
    });
    const ledger = await api.publicEvents(fixture.id);
    expect(ledger.map((e) => e.eventId)).toEqual([
      events[0]?.eventId,
      fixedSecond.eventId,
      third.eventId,
      events[3]?.eventId,
    ]);
    expect(ledger[1]?.runs).toEqual({ offBat: 2, extras: 0, total: 2 });
    expectError(
      await resubmit(path, [{ ordinal: 1, event: packageEventOf(fixture, second) }], submitter),
      409,
      "BATCH_NOT_RESUBMITTABLE",
    );
  });

  it("refuses items that can be published as they are, or that the batch has not, and anyone but the sender; records nothing", async () => {
    const { fixture, submitter, events, batch, path } = await aValidatedBatch();
    const event = packageEventOf(fixture, events[2] as SubmittedEvent);
    const revision = await revisionOf(batch.batchReference);
    const kept = await resubmit(
      path,
      [
        { ordinal: 0, event },
        { ordinal: 2, event },
      ],
      submitter,
    );
    expectError(kept, 409, "ITEM_NOT_RESUBMITTABLE");
    expect((kept.body as { error: { details: { field: string }[] } }).error.details.map((d) => d.field)).toEqual([
      "items.0.ordinal",
    ]);
    const unknown = await resubmit(
      path,
      [
        { ordinal: 9, event },
        { ordinal: 2, event },
        { ordinal: 2, event },
      ],
      submitter,
    );
    expectError(unknown, 422, "VALIDATION_FAILED");
    expect((unknown.body as { error: { details: { code: string; field: string }[] } }).error.details).toEqual([
      expect.objectContaining({ code: "ITEM_NOT_FOUND", field: "items.0.ordinal" }),
      expect.objectContaining({ code: "DUPLICATE_ITEM", field: "items.2.ordinal" }),
    ]);
    expectError(await resubmit(path, [{ ordinal: 2, event: "not a delivery" }], submitter), 422, "VALIDATION_FAILED");
    const other = await api.aSubmitter(api.admin, fixture.season.competition.id);
    const viewer = await api.signIn();
    for (const person of [api.admin, other, viewer])
      expectError(await resubmit(path, [{ ordinal: 2, event }], person), 403, "FORBIDDEN");
    expectUnauthorized(await api.api.post(`${path}/resubmissions`, { items: [{ ordinal: 2, event }] }));
    const headers = { "x-api-key": await api.anApiKey(api.admin) };
    expectUnauthorized(await api.api.post(`${path}/resubmissions`, { items: [{ ordinal: 2, event }] }, { headers }));
    expect(await revisionOf(batch.batchReference)).toBe(revision);
  });
});

describe("making a canonical fixture of a staged 1.1 batch's fixture", () => {
  const make = (path: string, body: unknown, by: Person = api.admin) =>
    api.api.post(`${path}/canonical-fixtures`, body, { token: by.token });
  const detailsOf = (res: { body: unknown }) =>
    (res.body as { error: { details: { code: string; field: string }[] } }).error.details.map((d) => [d.code, d.field]);

  it("makes the fixture from the proposal with the teams, season and people that exist, and validates the batch again with it", async () => {
    const { fixture, submitter, events, match, batch, path } = await aBatchOfAnUnknownFixture();
    expect(batch.status).toBe("staged");
    const res = await make(path, { referencePath: "fixtures.0" });
    expect(res.status, res.text).toBe(201);
    const fixtureId = cricsheetIds.fixture(match);
    expect(res.headers.get("location")).toBe(`/api/v1/fixtures/${fixtureId}`);
    expect((res.body as { data: { fixtureId: string; batch: ApiBatch } }).data).toMatchObject({
      fixtureId,
      batch: { status: "validating" },
    });

    const made = await api.api.get(`/api/v1/fixtures/${fixtureId}`);
    expect(made.status, made.text).toBe(200);
    expect((made.body as { data: Record<string, unknown> }).data).toMatchObject({
      fixtureId,
      startDate: "2031-05-17",
      season: { seasonId: fixture.season.id },
      competition: { competitionId: fixture.season.competition.id },
      competitors: [{ competitorId: fixture.home.id }, { competitorId: fixture.away.id }],
      venue: null,
      innings: [{ ordinal: 0 }],
      source: { sourceId: `cricsheet:fixture:${match}` },
    });
    await validator.drain();
    await api.world.catchUp();
    expect(await statusOf(batch.batchReference, submitter)).toMatchObject({
      status: "validated",
      counts: { accepted: 3 },
    });
    // nothing is published until review: the fixture has no delivery
    expect(await api.publicEvents(fixtureId)).toEqual([]);
    const types = (await api.world.store.readStream(batchStream(batch.batchReference))).map((e) => e.type);
    expect(types).toContain("BatchFixtureCreated");

    expect(
      (
        await api.api.post(
          `${path}/reviews`,
          { decision: "approved", items: "all", reason: "Scorecard" },
          { token: api.admin.token },
        )
      ).status,
    ).toBe(200);
    const published = await api.api.post(`${path}/publication`, undefined, { token: api.admin.token });
    expect(published.status, published.text).toBe(200);
    expect((await api.publicEvents(fixtureId)).map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
    expectError(await make(path, { referencePath: "fixtures.0" }), 409, "BATCH_NOT_STAGED");
  });

  it("refuses a team, participant or season that does not exist, naming each, and records nothing", async () => {
    const { batch, path } = await aBatchOfAnUnknownFixture((f) => {
      const context = f.context as { teams: unknown[] };
      context.teams[1] = { context: { name: "Nowhere Eleven" } };
      f.season = { context: { name: "1899" } };
    });
    const revision = await revisionOf(batch.batchReference);
    const refused = await make(path, { referencePath: "fixtures.0" });
    expectError(refused, 422, "VALIDATION_FAILED");
    expect(detailsOf(refused)).toEqual([
      ["SEASON_UNRESOLVED", "fixtures.0.season"],
      ["TEAM_UNRESOLVED", "fixtures.0.context.teams.1"],
    ]);
    const nobody = await aBatchOfAnUnknownFixture((f) => {
      const [innings] = f.innings as { events: Record<string, unknown>[] }[];
      if (innings?.events[1]) innings.events[1].bowler = { context: { name: "Nobody Atall" } };
    });
    const unknownPerson = await make(nobody.path, { referencePath: "fixtures.0" });
    expect(detailsOf(unknownPerson)).toEqual([["PARTICIPANT_UNRESOLVED", `${WHERE}.1.bowler`]]);
    expectError(await make(path, { referencePath: "fixtures.1" }), 422, "VALIDATION_FAILED");
    expect(detailsOf(await make(path, { referencePath: `${WHERE}.0.striker` }))).toEqual([
      ["REQUIREMENT_NOT_FOUND", "referencePath"],
    ]);
    expect(await revisionOf(batch.batchReference)).toBe(revision);
    expect(await statusOf(batch.batchReference, api.admin)).toMatchObject({ status: "staged" });
  });

  it("is an administrator's: the sender, another submitter, a viewer, an API key and no token are refused", async () => {
    const { fixture, submitter, batch, path } = await aBatchOfAnUnknownFixture();
    const other = await api.aSubmitter(api.admin, fixture.season.competition.id);
    const viewer = await api.signIn();
    for (const person of [submitter, other, viewer])
      expectError(await make(path, { referencePath: "fixtures.0" }, person), 403, "FORBIDDEN");
    expectUnauthorized(await api.api.post(`${path}/canonical-fixtures`, { referencePath: "fixtures.0" }));
    const headers = { "x-api-key": await api.anApiKey(api.admin) };
    expectUnauthorized(await api.api.post(`${path}/canonical-fixtures`, { referencePath: "fixtures.0" }, { headers }));
    expect((await statusOf(batch.batchReference, submitter)).status).toBe("staged");
  });
});
