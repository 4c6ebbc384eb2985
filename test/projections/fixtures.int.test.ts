import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtures } from "../../src/projections/fixtures.js";
import { catalogue } from "../../streams/index.js";
import { aFixture, type StreamEvent } from "../support/cricket-builders.js";
import { CricketWorld } from "../support/cricket-world.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { replayWholeLog, snapshot } from "../support/read-models.js";

const fixtureEvent = (stream: string, type: string, data: unknown): StreamEvent => ({
  id: randomUUID(),
  stream,
  type,
  data: catalogue.parse(type, data),
});

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`fixtures read model on ${backend.name}`, () => {
    let db: TestDatabase;
    let world: CricketWorld;
    const fixture = aFixture({ startDate: "2024-04-01", endDate: "2024-04-02" })
      .withInnings({ deliveries: 6 })
      .withOutcome();
    beforeAll(async () => {
      db = await backend.open();
      world = new CricketWorld(db.sql, [fixtures]);
      await world.given(fixture);
    });
    afterAll(() => db.close());

    it("keeps the fixture as scheduled, with its toss, outcome and source", async () => {
      const [row] = await db.sql`
        select competition_id, season_id, venue_id, competitor_ids, competitors, start_date::text, end_date::text,
               match_type, gender, balls_per_over, overs_per_innings, toss, outcome, source
        from fixture where fixture_id = ${fixture.id}`;
      expect(row).toEqual({
        competition_id: fixture.competition.id,
        season_id: fixture.season.id,
        venue_id: fixture.venue?.id,
        competitor_ids: [fixture.home.id, fixture.away.id],
        competitors: [
          { competitorId: fixture.home.id, name: fixture.home.name },
          { competitorId: fixture.away.id, name: fixture.away.name },
        ],
        start_date: "2024-04-01",
        end_date: "2024-04-02",
        match_type: "T20",
        gender: "male",
        balls_per_over: 6,
        overs_per_innings: 20,
        toss: { winnerId: fixture.home.id, decision: "bat" },
        outcome: expect.objectContaining({ result: "won", winnerId: fixture.home.id, by: { runs: 12 } }),
        source: {
          sourceId: `cricsheet:match:${fixture.id}`,
          revision: 1,
          dataVersion: "1.1.0",
          createdOn: "2024-04-01",
        },
      });
    });

    it("keeps each competitor's named squad in order", async () => {
      const rows = await db.sql`
        select competitor_id, participant_id, position from squad_member where fixture_id = ${fixture.id}
        order by competitor_id = ${fixture.home.id} desc, position`;
      expect(rows).toEqual(
        [fixture.home, fixture.away].flatMap((team) =>
          team.players.map((p, position) => ({ competitor_id: team.id, participant_id: p.id, position })),
        ),
      );
    });

    it("replaces a squad named again, and follows the source's newest revision", async () => {
      const reduced = fixture.home.players.slice(0, 3).map((p) => p.id);
      await world.append([
        fixtureEvent(fixture.stream, "SquadNamed", { competitorId: fixture.home.id, participantIds: reduced }),
        fixtureEvent(fixture.stream, "FixtureSourceRevised", { revision: 3, createdOn: "2024-05-01" }),
        fixtureEvent(fixture.stream, "FixtureSourceRevised", { revision: 2, createdOn: "2024-04-20" }),
      ]);
      const squad = await db.sql`
        select participant_id from squad_member where fixture_id = ${fixture.id} and competitor_id = ${fixture.home.id}
        order by position`;
      expect(squad.map((s) => s.participant_id)).toEqual(reduced);
      const [row] = await db.sql`select source from fixture where fixture_id = ${fixture.id}`;
      expect(row?.source).toMatchObject({ revision: 3, createdOn: "2024-05-01" });
    });

    it("changes nothing when the whole log is applied again", async () => {
      const before = await snapshot(db.sql, fixtures.tables);
      await replayWholeLog(db.sql, world.store, fixtures);
      expect(await snapshot(db.sql, fixtures.tables)).toEqual(before);
    });
  });
}
