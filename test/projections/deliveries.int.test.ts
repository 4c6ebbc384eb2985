import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveries } from "../../src/projections/deliveries.js";
import { aFixture, type BuiltDelivery, type FixtureBuilder } from "../support/cricket-builders.js";
import { CricketWorld } from "../support/cricket-world.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { replayWholeLog, snapshot } from "../support/read-models.js";

const involved = (d: BuiltDelivery) =>
  new Set([
    d.state.strikerId,
    d.state.nonStrikerId,
    d.state.bowlerId,
    ...d.state.wickets.flatMap((w) => [w.playerOutId, ...w.fielders.map((f) => f.participantId)]),
  ]);

/** What the innings row must hold, computed from the builder's own record of the deliveries. */
const expectedTotals = (fixture: FixtureBuilder, ordinal: number) => {
  const own = fixture.deliveries.filter((d) => d.inningsOrdinal === ordinal);
  return {
    runs: own.reduce((n, d) => n + d.state.runs.total, 0),
    wickets: own.flatMap((d) => d.state.wickets).filter((w) => !["retired hurt", "retired not out"].includes(w.kind))
      .length,
    legal_balls: own.filter((d) => !d.state.extras.wides && !d.state.extras.noBalls).length,
    deliveries: own.length,
  };
};

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`deliveries read model on ${backend.name}`, () => {
    let db: TestDatabase;
    let world: CricketWorld;
    const fixture = aFixture().withInnings({ deliveries: 40, wicketEvery: 5 }).withInnings({ deliveries: 35 });
    beforeAll(async () => {
      db = await backend.open();
      world = new CricketWorld(db.sql, [deliveries]);
      await world.given(fixture);
    });
    afterAll(() => db.close());

    const totals = async (ordinal: number) => {
      const [row] = await db.sql`
        select runs, wickets, legal_balls, deliveries from innings where fixture_id = ${fixture.id} and ordinal = ${ordinal}`;
      return row;
    };

    it("keeps one row per delivery with what the read API filters and orders on", async () => {
      const rows = await db.sql`
        select event_id::text, innings_ordinal, sequence_number, revision, batting_competitor_id
        from delivery where fixture_id = ${fixture.id} order by innings_ordinal, sequence_number`;
      expect(rows).toEqual(
        fixture.inOccurrenceOrder().map((d) => ({
          event_id: d.eventId,
          innings_ordinal: d.inningsOrdinal,
          sequence_number: d.sequenceNumber,
          revision: 1,
          batting_competitor_id: d.battingTeamId,
        })),
      );
      const caught = fixture.deliveries.find((d) => d.state.wickets[0]?.kind === "caught") as BuiltDelivery;
      const [row] = await db.sql`select * from delivery where event_id = ${caught.eventId}`;
      expect(row).toMatchObject({
        striker_id: caught.state.strikerId,
        wickets: caught.state.wickets,
        participant_ids: [...involved(caught)],
        // kept as those not at the crease or bowling: the fielder
        other_participant_ids: caught.state.wickets[0]?.fielders.map((f) => f.participantId),
        wicket_kinds: ["caught"],
        fallen_wickets: 1,
        legal: true,
      });
      const wide = fixture.deliveries.find((d) => d.state.extras.wides) as BuiltDelivery;
      expect(
        (
          await db.sql`select legal, extra_wides, extra_byes, runs_total from delivery where event_id = ${wide.eventId}`
        )[0],
      ).toEqual({ legal: false, extra_wides: 1, extra_byes: null, runs_total: 1 });
    });

    it("totals each innings from its deliveries: retired hurt is no wicket, wides and no-balls no legal ball", async () => {
      expect(fixture.deliveries.some((d) => d.state.wickets[0]?.kind === "retired hurt")).toBe(true);
      expect(await totals(0)).toEqual(expectedTotals(fixture, 0));
      expect(await totals(1)).toEqual(expectedTotals(fixture, 1));
    });

    it("records who appeared in the fixture's deliveries", async () => {
      const rows = await db.sql`select participant_id from appearance where fixture_id = ${fixture.id} order by 1`;
      const everyone = new Set(fixture.deliveries.flatMap((d) => [...involved(d)]));
      expect(rows.map((r) => r.participant_id)).toEqual([...everyone].sort());
    });

    it("replaces a delivery's current revision with a correction, and drops appearances it removed", async () => {
      // A fielder who appears in one delivery only: correcting that wicket away removes the appearance.
      const counts = new Map<string, number>();
      for (const d of fixture.deliveries) for (const p of involved(d)) counts.set(p, (counts.get(p) ?? 0) + 1);
      const target = fixture.deliveries.find((d) =>
        d.state.wickets.some((w) => w.fielders.some((f) => counts.get(f.participantId) === 1)),
      ) as BuiltDelivery;
      expect(target).toBeDefined();
      const lonelyFielder = target.state.wickets
        .flatMap((w) => w.fielders)
        .find((f) => counts.get(f.participantId) === 1)?.participantId;

      await world.append(fixture.correction(target.eventId, { runs: { offBat: 6, extras: 0, total: 6 }, wickets: [] }));
      const [row] = await db.sql`
        select revision, sequence_number, runs_total, wickets, wicket_kinds from delivery where event_id = ${target.eventId}`;
      expect(row).toEqual({
        revision: 2,
        sequence_number: target.sequenceNumber,
        runs_total: 6,
        wickets: [],
        wicket_kinds: null,
      });
      expect(await db.sql`select count(*)::int as n from delivery where event_id = ${target.eventId}`).toEqual([
        { n: 1 },
      ]);
      expect(await totals(target.inningsOrdinal)).toEqual(expectedTotals(fixture, target.inningsOrdinal));
      const appearances = await db.sql`
        select 1 from appearance where fixture_id = ${fixture.id} and participant_id = ${lonelyFielder ?? ""}`;
      expect(appearances).toHaveLength(0);
    });

    it("applies a second correction over the first, and never goes back to an older revision", async () => {
      const target = fixture.deliveries[3] as BuiltDelivery;
      await world.append(fixture.correction(target.eventId, { runs: { offBat: 2, extras: 0, total: 2 } }));
      await world.append(fixture.correction(target.eventId, { runs: { offBat: 3, extras: 0, total: 3 } }));
      const [row] = await db.sql`select revision, runs_total from delivery where event_id = ${target.eventId}`;
      expect(row).toEqual({ revision: 3, runs_total: 3 });
      expect(await totals(target.inningsOrdinal)).toEqual(expectedTotals(fixture, target.inningsOrdinal));
    });

    it("changes nothing when the whole log is applied again", async () => {
      const before = await snapshot(db.sql, deliveries.tables);
      await replayWholeLog(db.sql, world.store, deliveries);
      expect(await snapshot(db.sql, deliveries.tables)).toEqual(before);
    });
  });
}
