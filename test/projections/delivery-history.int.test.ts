import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import { deliveryHistory } from "../../src/projections/delivery-history.js";
import { type DeliveryRecorded, type DeliveryState, fixtureStream, type InningsOpened } from "../../streams/fixture.js";
import { deliveryState } from "../../streams/fixture-state.js";
import type { EventData } from "../../streams/types.js";
import { aFixture, type BuiltDelivery, type FixtureBuilder, type StreamEvent } from "../support/cricket-builders.js";
import { CricketWorld } from "../support/cricket-world.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { replayWholeLog, snapshot } from "../support/read-models.js";

/** A real T20 that was tied and decided by a super over (samples/cricsheet, ODC-BY). */
const TIED_MATCH = fileURLToPath(new URL("../../samples/cricsheet/533292.json", import.meta.url));

type RevisionRow = {
  revision: number;
  revision_event_id: string;
  sequence_number: number;
  actor: string;
  reason: string | null;
  state: DeliveryState;
  submission_id: string | null;
  position: number | null;
  refreshed_scopes: Record<string, string>[] | null;
  source: Record<string, unknown> | null;
};

/** A direct submission of `count` new deliveries of the fixture's first innings, as one append would hold it. */
function aSubmission(fixture: FixtureBuilder, count: number) {
  const submissionId = randomUUID();
  const recorded = fixture
    .moreDeliveries(0, count)
    .map((e) => ({ ...e, data: { ...(e.data as object), submissionId } }));
  const deliveries = fixture.deliveries.slice(-count);
  const accepted: StreamEvent = {
    id: randomUUID(),
    stream: fixture.stream,
    type: "SubmissionAccepted",
    data: {
      submissionId,
      submitterId: "scorer-1",
      receivedAt: new Date().toISOString(),
      schemaVersion: "1.0",
      payloadSha256: "0".repeat(64),
      eventIds: deliveries.map((d) => d.eventId),
      upload: null,
    },
  };
  return { submissionId, events: [accepted, ...recorded], deliveries };
}

/** The fixture scope, then each player's season, competition and career, players sorted. */
const scopesOf = (fixture: FixtureBuilder, participantIds: string[]) => [
  { scope: "fixture", fixtureId: fixture.id },
  ...[...new Set(participantIds)].sort().flatMap((participantId) => [
    { scope: "season", participantId, seasonId: fixture.season.id },
    { scope: "competition", participantId, competitionId: fixture.competition.id },
    { scope: "career", participantId },
  ]),
];
const withoutPaths = (row: RevisionRow | undefined) => row?.refreshed_scopes?.map(({ path: _path, ...scope }) => scope);

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`delivery history read model on ${backend.name}`, () => {
    let db: TestDatabase;
    let world: CricketWorld;
    const fixture = aFixture().withInnings({ deliveries: 0 });
    const bowlers = fixture.innings[0]?.bowling.players.map((p) => p.id) as string[];
    let submission: ReturnType<typeof aSubmission>;

    beforeAll(async () => {
      db = await backend.open();
      world = new CricketWorld(db.sql, [deliveryHistory]);
      await world.given(fixture);
      submission = aSubmission(fixture, 12);
      await world.append(submission.events);
      expect((await importCricsheet(world.store, [TIED_MATCH])).failed).toEqual([]);
      await world.catchUp();
    });
    afterAll(() => db.close());

    const revisionsOf = (eventId: string) => db.sql<RevisionRow[]>`
      select revision, revision_event_id::text, sequence_number, actor, reason, state, submission_id, position,
             refreshed_scopes, source
      from delivery_revision where event_id = ${eventId} order by revision`;
    const cleanDelivery = (from: number) =>
      submission.deliveries.slice(from).find((d) => d.state.wickets.length === 0) as BuiltDelivery;

    it("records a submitted delivery as revision 1 with its submission and its position in it", async () => {
      for (const [position, delivery] of submission.deliveries.entries())
        expect(await revisionsOf(delivery.eventId)).toEqual([
          {
            revision: 1,
            revision_event_id: expect.any(String),
            sequence_number: delivery.sequenceNumber,
            actor: "test",
            reason: null,
            state: delivery.state,
            submission_id: submission.submissionId,
            position,
            refreshed_scopes: null,
            source: { kind: "submission", submissionId: submission.submissionId, position },
          },
        ]);
    });

    it("keeps each direct submission as accepted, its event ids in submitted order", async () => {
      expect(
        await db.sql`
          select fixture_id, submitter_id, schema_version, payload_sha256, event_ids, upload
          from submission_record where submission_id = ${submission.submissionId}`,
      ).toEqual([
        {
          fixture_id: fixture.id,
          submitter_id: "scorer-1",
          schema_version: "1.0",
          payload_sha256: "0".repeat(64),
          event_ids: submission.deliveries.map((d) => d.eventId),
          upload: null,
        },
      ]);
    });

    it("records every imported delivery once, by the Cricsheet import, without a submission, from its file", async () => {
      const stream = await world.store.readStream(fixtureStream(cricsheetIds.fixture("533292")));
      const recorded = stream.filter((e) => e.type === "DeliveryRecorded");
      const rows = await db.sql`
        select event_id::text, revision, revision_event_id::text, sequence_number, actor, state, submission_id, position,
               source
        from delivery_revision where fixture_id = ${cricsheetIds.fixture("533292")}`;
      expect(rows).toHaveLength(recorded.length);
      const byEventId = new Map(rows.map((r) => [r.event_id, r]));
      for (const e of recorded) {
        const data = e.data as EventData<typeof DeliveryRecorded>;
        expect(byEventId.get(data.eventId)).toEqual({
          event_id: data.eventId,
          revision: 1,
          revision_event_id: e.id,
          sequence_number: data.sequenceNumber,
          actor: "cricsheet-import",
          state: deliveryState(data),
          submission_id: null,
          position: null,
          source: {
            kind: "cricsheet",
            sourceId: "cricsheet:fixture:533292",
            revision: expect.any(Number),
            dataVersion: expect.any(String),
            createdOn: expect.any(String),
          },
        });
      }
    });

    it("adds a correction as the next revision: who, why, the new state, the origin kept, the scopes of everyone in either state", async () => {
      const target = cleanDelivery(0);
      const before = target.state;
      const newBowler = bowlers.find((b) => b !== before.bowlerId) as string;
      const [correction] = fixture.correction(target.eventId, { bowlerId: newBowler }, "wrong bowler");
      await world.append([correction as StreamEvent]);

      const [, corrected] = await revisionsOf(target.eventId);
      expect(corrected).toMatchObject({
        revision: 2,
        revision_event_id: correction?.id,
        sequence_number: target.sequenceNumber,
        actor: "test",
        reason: "wrong bowler",
        state: { ...before, bowlerId: newBowler },
        submission_id: submission.submissionId,
        position: submission.deliveries.indexOf(target),
        // Not the import's: a direct correction, whose reason and corrector are the revision's own.
        source: { kind: "correction" },
      });
      expect(withoutPaths(corrected)).toEqual(
        scopesOf(fixture, [before.strikerId, before.nonStrikerId, before.bowlerId, newBowler]),
      );
    });

    it("chains corrections applied in one run: each replaces the revision before it", async () => {
      const target = cleanDelivery(6);
      const { strikerId, nonStrikerId, bowlerId: original } = target.state;
      const [first, second, third] = bowlers.filter((b) => b !== original);
      const corrections: StreamEvent[] = [first, second, third].flatMap((bowlerId) =>
        fixture.correction(target.eventId, { bowlerId: bowlerId as string }),
      );
      // The last spells the delivery's id in upper case: a uuid is the same id either way.
      const last = corrections[2] as StreamEvent;
      corrections[2] = { ...last, data: { ...(last.data as object), eventId: target.eventId.toUpperCase() } };
      await world.append(corrections);
      const rows = await revisionsOf(target.eventId);
      expect(rows.map((r) => [r.revision, r.state.bowlerId])).toEqual([
        [1, original],
        [2, first],
        [3, second],
        [4, third],
      ]);
      expect(withoutPaths(rows[3])).toEqual(
        scopesOf(fixture, [strikerId, nonStrikerId, second as string, third as string]),
      );
    });

    it("refreshes only the fixture when a super-over delivery is corrected", async () => {
      const fixtureId = cricsheetIds.fixture("533292");
      const stream = await world.store.readStream(fixtureStream(fixtureId));
      const superOver = stream
        .filter((e) => e.type === "InningsOpened")
        .map((e) => e.data as EventData<typeof InningsOpened>)
        .find((d) => d.superOver);
      const delivery = stream
        .filter((e) => e.type === "DeliveryRecorded")
        .map((e) => e.data as EventData<typeof DeliveryRecorded>)
        .find((d) => d.inningsId === superOver?.inningsId) as EventData<typeof DeliveryRecorded>;
      await world.append([
        {
          id: randomUUID(),
          stream: fixtureStream(fixtureId),
          type: "DeliveryCorrected",
          data: {
            eventId: delivery.eventId,
            revision: 2,
            reason: "six, not four",
            delivery: { ...deliveryState(delivery), runs: { offBat: 6, extras: 0, total: 6 } },
          },
        },
      ]);
      const [, corrected] = await revisionsOf(delivery.eventId);
      expect(withoutPaths(corrected)).toEqual([{ scope: "fixture", fixtureId }]);
    });

    it("changes nothing when the whole log is applied again", async () => {
      const before = await snapshot(db.sql, deliveryHistory.tables);
      await replayWholeLog(db.sql, world.store, deliveryHistory);
      expect(await snapshot(db.sql, deliveryHistory.tables)).toEqual(before);
    });
  });
}
