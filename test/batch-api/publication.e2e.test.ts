import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BatchValidator } from "../../src/batches/validator.js";
import { publishBatch } from "../../src/commands/batches/publication.js";
import type { EventStore } from "../../src/event-store/port.js";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import type { Account } from "../../streams/account-state.js";
import { batchStream } from "../../streams/batch.js";
import { fixtureStream } from "../../streams/fixture.js";
import { expectError, expectUnauthorized, type Person } from "../support/account-api.js";
import { type ApiBatch, sendBatch } from "../support/batches.js";
import { cricsheetFile } from "../support/cricsheet.js";
import { cricsheetPackage, openWithMatch } from "../support/cricsheet-packages.js";
import type { SubmissionApi } from "../support/submissions.js";

/**
 * Review and publication through HTTP, on a real IPL match (1082591: Sunrisers Hyderabad v
 * Royal Challengers Bangalore, 2017) imported first. Royal Challengers were all out after
 * 19.4 overs, so the second innings has two balls of its twenty overs to spare: the package
 * sends them as new deliveries, with corrections of two published deliveries of the first
 * innings and one published delivery as it is (a duplicate: nothing to review). A submitter
 * sends it; an administrator approves one new delivery and one correction, rejects the
 * others, and publishes: the ledger holds exactly the approved changes.
 */

const MATCH = "ipl/1082591.json";
const MOVED = "ipl/1082599.json";

type PackageEvent = Record<string, unknown> & {
  eventId: string;
  occurrenceSequence: number;
  overNumber: number;
  positionInOver: number;
  runs: { offBat: number; extras: number; total: number };
  extras: Record<string, number>;
  wickets: unknown[];
};
type ReportItem = {
  ordinal: number;
  outcome: string;
  eventId: string;
  review: { decision: string; reason: string; reviewedBy: string } | null;
  publication: { status: string; eventId?: string; revision?: number; code?: string } | null;
};
type Publication = {
  status: string;
  published: number;
  refused: number;
  changed: boolean;
  refreshedScopes: { scope: string; path: string; fixtureId?: string }[];
  batch: ApiBatch & { review: Record<string, number>; publication: Record<string, unknown> | null };
};

let api: SubmissionApi;
let submitter: Person;
let validator: BatchValidator;
let reviewer: Person;
beforeAll(async () => {
  ({ api, submitter, validator } = await openWithMatch(MATCH));
  reviewer = await api.anAdmin();
}, 120_000);
afterAll(() => api?.close());

const inningsOf = (match: string, n: number) =>
  (cricsheetPackage(match).body.fixtures[0]?.innings[n]?.events ?? []) as PackageEvent[];
const plain = (e: PackageEvent) => e.runs.total === 0 && e.wickets.length === 0;

/** The package of `match`: corrections of two published dot balls, one published delivery as it is, two new balls at the end. */
function thePackage(match: string) {
  const { body } = cricsheetPackage(match);
  const [fixture] = body.fixtures;
  const [first, second] = fixture?.innings ?? [];
  const [dotA, dotB] = inningsOf(match, 0).filter(plain);
  const asIs = inningsOf(match, 0).find((e) => !plain(e)) as PackageEvent;
  const last = inningsOf(match, 1).at(-1) as PackageEvent;
  const correction = (e: PackageEvent, offBat: number) => ({
    ...e,
    eventId: randomUUID(),
    operation: "correction",
    correctsEventId: e.eventId,
    runs: { offBat, extras: 0, total: offBat },
  });
  const newBall = (n: number, offBat: number) => ({
    ...last,
    eventId: randomUUID(),
    occurrenceSequence: last.occurrenceSequence + n,
    positionInOver: last.positionInOver + n,
    ballLabel: `${last.overNumber}.${last.positionInOver + n + 1}`,
    runs: { offBat, extras: 0, total: offBat },
    extras: {},
    wickets: [],
  });
  if (!dotA || !dotB) throw new Error("the first innings has dot balls");
  return {
    targets: { corrected: dotA, rejected: dotB, last },
    body: {
      ...body,
      packageId: `publication-${randomUUID()}`,
      fixtures: [
        {
          ...fixture,
          innings: [
            { ...first, events: [correction(dotA, 4), correction(dotB, 6), asIs] },
            { ...second, events: [newBall(1, 6), newBall(2, 1)] },
          ],
        },
      ],
    },
  };
}

/** Sends the package as the submitter and lets the validator judge it. */
async function aValidatedBatch(match = MATCH) {
  const sent = thePackage(match);
  const res = await sendBatch(api.api, sent.body, { token: submitter.token });
  expect(res.status, res.text).toBe(202);
  const batch = (res.body as { data: ApiBatch }).data;
  await validator.drain();
  await api.world.catchUp();
  return { ...sent, batch, path: `/api/v1/batches/${batch.batchReference}` };
}

const reportOf = async (path: string) => {
  const res = await api.api.get(`${path}/report`, { token: reviewer.token });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: ReportItem[] }).data;
};
const review = (path: string, body: unknown, token = reviewer.token) =>
  api.api.post(`${path}/reviews`, body, { token });
const publish = (path: string, token = reviewer.token) => api.api.post(`${path}/publication`, undefined, { token });

describe("reviewing and publishing a batch of a real match", () => {
  it("publishes exactly the approved items, partially, changes the statistics, and publishes nothing twice", async () => {
    const { batch, path, targets } = await aValidatedBatch();
    const before = await reportOf(path);
    expect(before.map((i) => i.outcome)).toEqual(["accepted", "accepted", "duplicate", "accepted", "accepted"]);
    const fixtureId = cricsheetIds.fixture("1082591");
    const eventsBefore = await api.publicEvents(fixtureId);
    const totalBefore = await api.api.get(`/api/v1/fixtures/${fixtureId}/statistics/innings-1-total`);
    expect(totalBefore.status, totalBefore.text).toBe(200);

    // only accepted items are reviewed; publication waits until each has a decision
    expectError(
      await review(path, { decision: "approved", items: [2], reason: "As published" }),
      409,
      "ITEM_NOT_REVIEWABLE",
    );
    expectError(await review(path, { decision: "approved", items: [9], reason: "No such" }), 422, "VALIDATION_FAILED");
    const approved = await review(path, {
      decision: "approved",
      items: [0, 3],
      reason: "Checked against the scorecard",
    });
    expect(approved.status, approved.text).toBe(200);
    expect((approved.body as { data: Publication["batch"] }).data.review).toEqual({
      approved: 2,
      rejected: 0,
      undecided: 2,
    });
    expectError(await publish(path), 409, "REVIEW_INCOMPLETE");
    const rejected = await review(path, { decision: "rejected", items: [1, 4], reason: "The scorer disagrees" });
    expect(rejected.status, rejected.text).toBe(200);

    const res = await publish(path);
    expect(res.status, res.text).toBe(200);
    const publication = (res.body as { data: Publication }).data;
    expect(publication).toMatchObject({ status: "partially_published", published: 2, refused: 0, changed: true });
    expect(publication.batch).toMatchObject({
      status: "partially_published",
      publication: { published: 2, refused: 0 },
    });
    expect(publication.refreshedScopes).toContainEqual(expect.objectContaining({ scope: "fixture", fixtureId }));
    expect(publication.refreshedScopes.some((s) => s.scope === "career")).toBe(true);

    // the ledger holds exactly the approved changes, read back through the public reads
    const eventsAfter = await api.publicEvents(fixtureId);
    const newIds = new Set(eventsBefore.map((e) => e.eventId));
    const added = eventsAfter.filter((e) => !newIds.has(e.eventId));
    expect(added.map((e) => e.eventId)).toEqual([before[3]?.eventId]);
    const live = (id: string) => eventsAfter.find((e) => e.eventId === id);
    expect(live(targets.corrected.eventId)).toMatchObject({ revision: 2, runs: { offBat: 4, total: 4 } });
    expect(live(targets.rejected.eventId)).toMatchObject({ revision: 1, runs: { offBat: 0, total: 0 } });
    // statistics follow a moment after the answer, as after a direct correction
    await api.world.catchUp();
    const totalAfter = await api.api.get(`/api/v1/fixtures/${fixtureId}/statistics/innings-1-total`);
    // the approved six is in Royal Challengers' total, the rejected single is not; the fixture's version advanced
    type Total = { data: { runs: number; overs: string }; fixtureVersion: number };
    const [was, is] = [totalBefore.body as Total, totalAfter.body as Total];
    expect(is.data).toMatchObject({ runs: was.data.runs + 6, overs: "19.5" });
    expect(is.fixtureVersion).toBeGreaterThan(was.fixtureVersion);

    // the report tells each item's review and publication
    const after = await reportOf(path);
    expect(after.map((i) => [i.review?.decision ?? null, i.publication?.status ?? null])).toEqual([
      ["approved", "published"],
      ["rejected", null],
      [null, null],
      ["approved", "published"],
      ["rejected", null],
    ]);
    expect(after[0]?.publication).toMatchObject({ eventId: targets.corrected.eventId, revision: 2 });
    expect(after[0]?.review).toMatchObject({ reviewedBy: reviewer.id, reason: "Checked against the scorecard" });

    // provenance traces each revision publication made to its batch item and approval
    const provenance = async (eventId: string) => {
      const res = await api.api.get(`/api/v1/provenance/events/${eventId}`, { token: reviewer.token });
      expect(res.status, res.text).toBe(200);
      return (res.body as { data: { revisions: { revision: number; source: Record<string, unknown> }[] } }).data;
    };
    const itemSource = (ordinal: number, reason: string) => ({
      kind: "batch",
      batchReference: batch.batchReference,
      ordinal,
      publishedBy: { id: reviewer.id },
      review: { reviewedBy: { id: reviewer.id }, decision: "approved", reason },
      batch: path,
    });
    const corrected = await provenance(targets.corrected.eventId);
    expect(corrected.revisions.map((r) => r.source.kind)).toEqual(["cricsheet", "batch"]);
    expect(corrected.revisions[1]?.source).toMatchObject(itemSource(0, "Checked against the scorecard"));
    const recorded = await provenance(before[3]?.eventId as string);
    expect(recorded.revisions).toHaveLength(1);
    expect(recorded.revisions[0]?.source).toMatchObject(itemSource(3, "Checked against the scorecard"));
    const history = await api.api.get(`/api/v1/submissions/events/${targets.corrected.eventId}/history`, {
      token: reviewer.token,
    });
    expect(history.status, history.text).toBe(200);
    expect((history.body as { data: { corrections: unknown[] } }).data.corrections).toEqual([
      expect.objectContaining({
        batchItemId: `${batch.batchReference}:0`,
        review: expect.objectContaining({ reviewer: reviewer.id, decision: "approved" }),
      }),
    ]);

    // rebuilt from the log, the provenance and the batch's report answer the same
    const traced = async () => [
      await provenance(targets.corrected.eventId),
      await provenance(before[3]?.eventId as string),
      await reportOf(path),
    ];
    const beforeRebuild = await traced();
    await api.world.runner.rebuild("delivery_history");
    await api.world.runner.rebuild("batches");
    expect(await traced()).toEqual(beforeRebuild);

    // a retry publishes nothing twice, and the batch takes no more decisions
    const again = await publish(path);
    expect(again.status, again.text).toBe(200);
    expect((again.body as { data: Publication }).data).toMatchObject({
      status: "partially_published",
      published: 2,
      changed: false,
      refreshedScopes: [],
    });
    expect(await api.publicEvents(fixtureId)).toEqual(eventsAfter);
    expectError(
      await review(path, { decision: "rejected", items: "all", reason: "Too late" }),
      409,
      "BATCH_NOT_REVIEWABLE",
    );
    const status = await api.api.get(path, { token: submitter.token });
    expect((status.body as { data: ApiBatch }).data.status).toBe("partially_published");
    expect(batch.status).toBe("received");
  });

  it("serves a report page from the cache until a review changes the batch", async () => {
    const { path } = await aValidatedBatch();
    const page = () => api.api.get(`${path}/report?limit=2`, { token: submitter.token });
    const first = await page();
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get("X-Cache")).toBe("MISS");
    const again = await page();
    expect(again.headers.get("X-Cache")).toBe("HIT");
    expect(again.text).toBe(first.text);
    // another page, filter or caller's view of the same revision is its own entry
    const filtered = await api.api.get(`${path}/report?limit=2&outcome=duplicate`, { token: reviewer.token });
    expect(filtered.headers.get("X-Cache")).toBe("MISS");
    const duplicates = (filtered.body as { data: ReportItem[] }).data;
    expect(duplicates.length).toBeGreaterThan(0);
    expect(duplicates.every((i) => i.outcome === "duplicate")).toBe(true);

    const accepted = (first.body as { data: ReportItem[] }).data.find((i) => i.outcome === "accepted");
    const ordinal = accepted?.ordinal as number;
    expect((await review(path, { decision: "approved", items: [ordinal], reason: "Checked" })).status).toBe(200);
    const reviewed = await page();
    expect(reviewed.headers.get("X-Cache")).toBe("MISS");
    const items = (reviewed.body as { data: ReportItem[] }).data;
    expect(items.find((i) => i.ordinal === ordinal)?.review?.decision).toBe("approved");
    expect((await page()).headers.get("X-Cache")).toBe("HIT");
  });

  it("is refused to the submitter who sent it, another submitter, a viewer, an API key and a caller without a token", async () => {
    const { path } = await aValidatedBatch();
    const body = { decision: "approved", items: "all", reason: "Looks right" };
    expectError(await review(path, body, submitter.token), 403, "SELF_REVIEW_FORBIDDEN");
    expectError(await publish(path, submitter.token), 403, "SELF_REVIEW_FORBIDDEN");
    const other = await api.aSubmitter(api.admin, cricsheetPackage(MATCH).competitionId);
    const viewer = await api.signIn();
    for (const token of [other.token, viewer.token]) {
      expectError(await review(path, body, token), 403, "FORBIDDEN");
      expectError(await publish(path, token), 403, "FORBIDDEN");
    }
    expectUnauthorized(await api.api.post(`${path}/reviews`, body));
    expectUnauthorized(await api.api.post(`${path}/publication`, undefined));
    const headers = { "x-api-key": await api.anApiKey(api.admin) };
    expectUnauthorized(await api.api.post(`${path}/reviews`, body, { headers }));
    expectUnauthorized(await api.api.post(`${path}/publication`, undefined, { headers }));
    // nothing of it was recorded
    expect((await reportOf(path)).every((i) => i.review === null)).toBe(true);
  });

  it("a whole-batch rejection publishes nothing: the batch ends rejected", async () => {
    const { path } = await aValidatedBatch();
    expect((await review(path, { decision: "rejected", items: "all", reason: "Not this source" })).status).toBe(200);
    const res = await publish(path);
    expect(res.status, res.text).toBe(200);
    expect((res.body as { data: Publication }).data).toMatchObject({
      status: "rejected",
      published: 0,
      refreshedScopes: [],
    });
  });

  it("refuses what the ledger no longer takes at publication, and publishes the rest", async () => {
    // Another IPL match of the season, whose chase ended at 16.1 overs: balls to spare.
    const summary = await importCricsheet(api.world.store, [cricsheetFile(MOVED)]);
    expect(summary.failed).toEqual([]);
    await api.world.catchUp();
    const { path, targets } = await aValidatedBatch(MOVED);
    const approved = await review(path, { decision: "approved", items: "all", reason: "Checked" });
    expect((approved.body as { data: Publication["batch"] }).data.review).toEqual({
      approved: 4,
      rejected: 0,
      undecided: 0,
    });

    // the ledger moves after review: a direct correction makes item 0's change, a direct submission takes item 3's ball
    const admin = { token: api.admin.token };
    const stateOf = async (eventId: string) => {
      const res = await api.api.get(`/api/v1/submissions/events/${eventId}/history`, admin);
      expect(res.status, res.text).toBe(200);
      return (res.body as { data: { fixtureId: string; recorded: { state: Record<string, unknown> } } }).data;
    };
    const corrected = await stateOf(targets.corrected.eventId);
    const { eventId: _e, sequenceNumber: _s, ...event } = corrected.recorded.state;
    const put = await api.api.put(
      `/api/v1/submissions/events/${targets.corrected.eventId}`,
      {
        fixtureId: corrected.fixtureId,
        schemaVersion: "1.0",
        reason: "Four",
        event: { ...event, runs: { offBat: 4, extras: 0, total: 4 } },
      },
      admin,
    );
    expect(put.status, put.text).toBe(200);
    const last = (await stateOf(targets.last.eventId)).recorded.state as {
      sequenceNumber: number;
      overNumber: number;
      positionInOver: number;
    };
    const taken = {
      ...last,
      eventId: randomUUID(),
      sequenceNumber: last.sequenceNumber + 1,
      positionInOver: last.positionInOver + 1,
      ballNumber: `${last.overNumber}.${last.positionInOver + 2}`,
      runs: { offBat: 0, extras: 0, total: 0 },
      extras: {},
      wickets: [],
    };
    const submitted = await api.submit({ fixtureId: corrected.fixtureId, schemaVersion: "1.0", events: [taken] });
    expect(submitted.status, submitted.text).toBe(201);

    const res = await publish(path);
    expect(res.status, res.text).toBe(200);
    expect((res.body as { data: Publication }).data).toMatchObject({
      status: "partially_published",
      published: 2,
      refused: 2,
    });
    const items = await reportOf(path);
    expect(items.map((i) => [i.publication?.status ?? null, i.publication?.code ?? null])).toEqual([
      ["refused", "CORRECTION_UNCHANGED"],
      ["published", null],
      [null, null],
      ["refused", "EVENT_CONFLICT"],
      ["published", null],
    ]);
    const events = await api.publicEvents(corrected.fixtureId);
    expect(events.find((e) => e.eventId === items[3]?.eventId)).toBeUndefined();
    expect(events.find((e) => e.eventId === items[4]?.eventId)).toMatchObject({ revision: 1 });
    expect(events.find((e) => e.eventId === targets.corrected.eventId)).toMatchObject({ revision: 2 });
  });

  it("interrupted after a fixture's append, completes on a retry without publishing anything twice", async () => {
    const { batch, path, targets } = await aValidatedBatch();
    // What is still accepted depends on what the tests above published; the second dot ball's correction always is.
    const accepted = (await reportOf(path)).filter((i) => i.outcome === "accepted");
    expect(accepted.map((i) => i.ordinal)).toContain(1);
    expect((await review(path, { decision: "approved", items: "all", reason: "Six, not a dot" })).status).toBe(200);
    // The store fails the batch's own append once: the fixture's append stood, BatchPublished did not.
    const store = api.world.store;
    const failing: EventStore = Object.assign(Object.create(store), {
      append: (
        stream: string,
        events: Parameters<EventStore["append"]>[1],
        expected: Parameters<EventStore["append"]>[2],
      ) =>
        stream === batchStream(batch.batchReference)
          ? Promise.reject(new Error("connection lost"))
          : store.append(stream, events, expected),
    });
    const publisher: Account = {
      accountId: reviewer.id,
      subject: reviewer.subject,
      displayName: "Reviewer",
      role: "admin",
      approvalState: null,
      requestedCompetitionId: null,
      competitionIds: [],
      disabled: false,
      tombstoned: false,
      decidedBy: "cli",
    };
    await expect(
      publishBatch(
        { store: failing, sql: api.db.sql },
        { batchReference: batch.batchReference, publisher },
        { actor: reviewer.id, now: new Date() },
      ),
    ).rejects.toThrow("connection lost");

    const res = await publish(path);
    expect(res.status, res.text).toBe(200);
    expect((res.body as { data: Publication }).data).toMatchObject({
      status: "partially_published",
      published: accepted.length,
      refused: 0,
    });
    const fixtureId = cricsheetIds.fixture("1082591");
    const records = (await store.readStream(fixtureStream(fixtureId))).filter(
      (e) =>
        e.type === "BatchItemsPublished" &&
        (e.data as { batchReference: string }).batchReference === batch.batchReference,
    );
    expect(records.map((e) => (e.data as { items: unknown[] }).items.length)).toEqual([accepted.length]);
    const live = (await api.publicEvents(fixtureId)).find((e) => e.eventId === targets.rejected.eventId);
    expect(live).toMatchObject({ revision: 2, runs: { offBat: 6, total: 6 } });
  });
});
