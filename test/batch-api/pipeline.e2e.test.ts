import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BatchValidator } from "../../src/batches/validator.js";
import { createLogger } from "../../src/http/logging.js";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import type { Person } from "../support/account-api.js";
import { type ApiBatch, sendBatch } from "../support/batches.js";
import { dismissalKinds } from "../support/cricket-builders.js";
import { cricsheetFile } from "../support/cricsheet.js";
import { cricsheetPackage } from "../support/cricsheet-packages.js";
import { openSubmissionApi, type PublicEvent, type SubmissionApi } from "../support/submissions.js";

/**
 * The whole batch pipeline on real IPL 2017 matches. Two are imported: Sunrisers Hyderabad v
 * Royal Challengers Bangalore (1082591) and Rising Pune Supergiant v Sunrisers (1082615), so
 * the teams, the season and everyone who plays in the third exist (and "caught and bowled",
 * which the third has and they have not, is registered). A submitter sends a 1.1
 * package of two fixtures: a correction of a ball of 1082591 whose bowler is named by a name
 * two of the fielding side go by (ambiguous), and the whole of Sunrisers v Rising Pune
 * (1082634), a fixture the competition does not have (unknown). Intake, the ambiguity mapped,
 * the canonical fixture made, validation, review with two items rejected, their resubmission,
 * publication: the statistics change, and a season leaderboard row is traced back to the
 * batch items and their approvals.
 */

const KNOWN = "1082591";
const UNKNOWN = "1082634";
const knownFixture = cricsheetIds.fixture(KNOWN);
const newFixture = cricsheetIds.fixture(UNKNOWN);

type Requirement = {
  code: string;
  referencePath: string;
  candidates: { sourceId: string; candidateReference: string }[];
};
type Item = { ordinal: number; outcome: string; requirements: Requirement[]; eventId: string | null };
type PackageEvent = Record<string, unknown> & { eventId: string; runs: { total: number }; wickets: unknown[] };
type Contributor = { eventId: string; fixtureId: string; revisions: { source: Record<string, unknown> | null }[] };

let api: SubmissionApi;
let submitter: Person;
let reviewer: Person;
let validator: BatchValidator;
beforeAll(async () => {
  api = await openSubmissionApi();
  const files = [KNOWN, "1082615"].map((m) => cricsheetFile(`ipl/${m}.json`));
  const imported = await importCricsheet(api.world.store, files);
  expect(imported.failed).toEqual([]);
  // A kind the two imported matches have no example of, as a larger import would have it.
  await api.world.given(dismissalKinds("caught and bowled"));
  submitter = await api.aSubmitter(api.admin, cricsheetPackage(`ipl/${KNOWN}.json`).competitionId);
  reviewer = await api.anAdmin();
  validator = new BatchValidator({ sql: api.db.sql, store: api.world.store, logger: createLogger("silent") });
}, 180_000);
afterAll(() => api?.close());

const as = (person: Person) => ({ token: person.token });
async function settle() {
  await validator.drain();
  await api.world.catchUp();
}
async function ok<T>(res: Promise<{ status: number; text: string; body: unknown }>, status = 200): Promise<T> {
  const answer = await res;
  expect(answer.status, answer.text).toBe(status);
  return (answer.body as { data: T }).data;
}

describe("a batch from intake to provenance", () => {
  it("maps, makes the fixture, validates, reviews, resubmits, publishes, and traces a leaderboard row to its items", async () => {
    // The known match: a dot ball of its first innings corrected to a single, its bowler named ambiguously.
    const knownEvents = await api.publicEvents(knownFixture);
    const known = cricsheetPackage(`ipl/${KNOWN}.json`).body.fixtures[0] as unknown as {
      innings: { events: PackageEvent[] }[];
    } & Record<string, unknown>;
    const dot = known.innings[0]?.events.find((e) => e.runs.total === 0 && e.wickets.length === 0) as PackageEvent;
    const bowlerId = knownEvents.find((e) => e.eventId === dot.eventId)?.bowlerId as string;
    const otherBowler = knownEvents.find((e) => e.inningsId === knownEvents[0]?.inningsId && e.bowlerId !== bowlerId)
      ?.bowlerId as string;
    const shared = `Bowler ${randomUUID().slice(0, 6)}`;
    await api.world.given({
      events: () =>
        [bowlerId, otherBowler].map((participantId) => ({
          id: randomUUID(),
          stream: `participant-${participantId}`,
          type: "ParticipantNameAdded",
          data: { participantId, name: shared },
        })),
    });
    const correction = {
      ...dot,
      eventId: randomUUID(),
      operation: "correction",
      correctsEventId: dot.eventId,
      runs: { offBat: 1, extras: 0, total: 1 },
      bowler: { context: { name: shared } },
    };
    const unknownPackage = cricsheetPackage(`ipl/${UNKNOWN}.json`).body;
    const body = {
      ...unknownPackage,
      packageId: `pipeline-${randomUUID().slice(0, 8)}`,
      season: { context: { name: "2017" } },
      fixtures: [{ ...known, innings: [{ ...known.innings[0], events: [correction] }] }, ...unknownPackage.fixtures],
    };
    const newEvents = unknownPackage.fixtures[0]?.innings.flatMap((i) => i.events) ?? [];

    // intake and validation: the bowler is ambiguous, the fixture unknown
    const sent = await ok<ApiBatch>(sendBatch(api.api, body, as(submitter)), 202);
    const path = `/api/v1/batches/${sent.batchReference}`;
    await settle();
    expect((await ok<ApiBatch>(api.api.get(path, as(submitter)))).status).toBe("staged");
    const report = async () => {
      const res = await api.api.get(`${path}/report/download`, as(submitter));
      expect(res.status, res.text).toBe(200);
      return (JSON.parse(res.text) as { items: Item[] }).items;
    };
    const [ambiguous] = (await report())[0]?.requirements ?? [];
    expect(ambiguous).toMatchObject({
      code: "AMBIGUOUS_REFERENCE",
      referencePath: "fixtures.0.innings.0.events.0.bowler",
    });
    expect((await report()).slice(1).every((i) => i.requirements.some((r) => r.referencePath === "fixtures.1"))).toBe(
      true,
    );

    // the sender maps the bowler; an administrator makes the fixture
    const chosen = ambiguous?.candidates.find((c) => c.sourceId === `app:participant:${bowlerId}`);
    const mapping = { referencePath: ambiguous?.referencePath, candidate: chosen?.candidateReference };
    await ok(api.api.post(`${path}/mappings`, { mappings: [mapping] }, as(submitter)), 202);
    await settle();
    expect((await report())[0]?.outcome).toBe("accepted");
    const made = await ok<{ fixtureId: string }>(
      api.api.post(`${path}/canonical-fixtures`, { referencePath: "fixtures.1" }, as(reviewer)),
      201,
    );
    expect(made.fixtureId).toBe(newFixture);
    await settle();
    const validated = await ok<ApiBatch & { counts: Record<string, number> }>(api.api.get(path, as(submitter)));
    expect(validated).toMatchObject({ status: "validated", counts: { accepted: 1 + newEvents.length, rejected: 0 } });

    // review: everything approved, then two deliveries rejected; the sender replaces them
    const review = (items: number[] | "all", decision: string, reason: string) =>
      ok(api.api.post(`${path}/reviews`, { decision, items, reason }, as(reviewer)));
    await review("all", "approved", "Checked against the scorecard");
    await review([1, 2], "rejected", "The scorer's sheet disagrees");
    const replacements = [1, 2].map((ordinal) => ({ ordinal, event: newEvents[ordinal - 1] }));
    await ok(api.api.post(`${path}/resubmissions`, { items: replacements }, as(submitter)), 202);
    await settle();
    expect(await ok<{ review: Record<string, number> }>(api.api.get(path, as(submitter)))).toMatchObject({
      status: "validated",
      review: { approved: newEvents.length - 1, rejected: 0, undecided: 2 },
    });
    await review([1, 2], "approved", "Resubmitted, checked again");

    // publication: every item in the ledger, the statistics follow
    const known0 = await ok<{ season: { seasonId: string } }>(api.api.get(`/api/v1/fixtures/${knownFixture}`));
    const leaderboard = `/api/v1/statistics/leaderboards?scope=season&seasonId=${known0.season.seasonId}&metric=most_runs&limit=50`;
    const before = await ok<{ value: number; participantId: string }[]>(api.api.get(leaderboard));
    const published = await ok<{ status: string; published: number }>(
      api.api.post(`${path}/publication`, undefined, as(reviewer)),
    );
    expect(published).toMatchObject({ status: "published", published: 1 + newEvents.length });
    await api.world.catchUp();
    const ledger = await api.publicEvents(newFixture);
    expect(ledger.map((e) => e.eventId)).toEqual(newEvents.map((e) => e.eventId));
    const corrected = (await api.publicEvents(knownFixture)).find((e) => e.eventId === dot.eventId) as PublicEvent;
    expect(corrected).toMatchObject({ revision: 2, bowlerId, runs: { offBat: 1, total: 1 } });

    // the new fixture's top scorer: their season runs grew by their runs in it
    const runsIn = (events: PublicEvent[], participantId: string) =>
      events.filter((e) => e.strikerId === participantId).reduce((sum, e) => sum + e.runs.offBat, 0);
    const batters = [...new Set(ledger.map((e) => e.strikerId))];
    const scorer = batters.reduce((a, b) => (runsIn(ledger, b) > runsIn(ledger, a) ? b : a));
    const board = await api.api.get(leaderboard);
    const { data: rows, provenance } = board.body as {
      data: { participantId: string; value: number }[];
      provenance: string;
    };
    const row = rows.find((r) => r.participantId === scorer);
    const earlier = before.find((r) => r.participantId === scorer)?.value ?? 0;
    expect(row?.value).toBe(earlier + runsIn(ledger, scorer) + (corrected.strikerId === scorer ? 1 : 0));

    // the row's provenance: its runs in the new fixture came from the batch's items and their approvals
    const trace: Contributor[] = [];
    let cursor: string | null = null;
    do {
      const url = `${provenance.replace("{participantId}", scorer)}&limit=100${cursor ? `&cursor=${cursor}` : ""}`;
      const page = (await api.api.get(url, as(reviewer))).body as {
        data: Contributor[];
        pagination: { nextCursor: string | null };
      };
      trace.push(...page.data);
      cursor = page.pagination.nextCursor;
    } while (cursor);
    const fromBatch = trace.filter((c) => c.fixtureId === newFixture);
    expect(fromBatch.length).toBeGreaterThan(0);
    for (const c of fromBatch) {
      const ordinal = newEvents.findIndex((e) => e.eventId === c.eventId) + 1;
      expect(c.revisions.map((r) => r.source)).toEqual([
        expect.objectContaining({
          kind: "batch",
          batchReference: sent.batchReference,
          ordinal,
          review: expect.objectContaining({
            reviewedBy: expect.objectContaining({ id: reviewer.id }),
            reason: ordinal <= 2 ? "Resubmitted, checked again" : "Checked against the scorecard",
          }),
        }),
      ]);
    }
    expect(
      trace.filter((c) => c.fixtureId !== newFixture).every((c) => c.revisions[0]?.source?.kind === "cricsheet"),
    ).toBe(true);
  });
});
