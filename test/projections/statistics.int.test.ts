import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import { findGeneration } from "../../src/projections/generations.js";
import { ProjectionRunner } from "../../src/projections/runner.js";
import { statistics } from "../../src/projections/statistics.js";
import { DeliveryCorrected } from "../../streams/fixture.js";
import { catalogue } from "../../streams/index.js";
import { cricsheetFile } from "../support/cricsheet.js";
import { openTestDatabase, type TestDatabase } from "../support/databases.js";
import { replayWholeLog, snapshot } from "../support/read-models.js";
import { cardsOf } from "../support/scorecards.js";

const SEASON_2016 = Array.from({ length: 60 }, (_, i) => cricsheetFile(`ipl/${980901 + 2 * i}.json`));
const KOHLI = cricsheetIds.participant("ba607b88");

describe("statistics projection", () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let runner: ProjectionRunner;
  beforeAll(async () => {
    db = await openTestDatabase();
    store = new PostgresEventStore(db.sql);
    runner = new ProjectionRunner(db.sql, store, [statistics]);
    await importCricsheet(store, [...SEASON_2016, cricsheetFile("t20i/533292.json")]);
    await runner.catchUp();
  }, 120_000);
  afterAll(async () => db?.close());

  const aggregateOf = async (participantId: string, scopeType: string, scopeId = "") => {
    const [row] = await db.sql<{ figures: { matches: number; batting: Record<string, unknown> } }[]>`
      select figures from player_aggregate where participant_id = ${participantId} and scope_type = ${scopeType} and scope_id = ${scopeId}`;
    return row?.figures;
  };

  it("stores each fixture's scorecards as the engine computes them from the ledger", async () => {
    const [row] = await db.sql<
      { statistics: { innings: { total: unknown; batting: unknown[] }[]; completeness: { state: string } } }[]
    >`
      select statistics from fixture_statistics where fixture_id = ${cricsheetIds.fixture("980901")}`;
    const expected = cardsOf("ipl/980901.json");
    expect(row?.statistics.innings.map((i) => i.total)).toEqual(expected.map((c) => c.total));
    expect(row?.statistics.innings[0]?.batting).toEqual(expected[0]?.batting);
    expect(row?.statistics.completeness.state).toBe("complete");
  });

  it("aggregates a season per player: V Kohli's 973 runs in IPL 2016", async () => {
    const seasonId = cricsheetIds.season(cricsheetIds.competition("male", "Indian Premier League"), "2016");
    const season = await aggregateOf(KOHLI, "season", seasonId);
    expect(season?.matches).toBe(16);
    expect(season?.batting).toMatchObject({
      runs: 973,
      innings: 16,
      notOuts: 4,
      highestScore: "113",
      average: 81.08,
      strikeRate: 152.03,
    });
    expect(await aggregateOf(KOHLI, "career")).toMatchObject({ batting: expect.objectContaining({ runs: 973 }) });
  });

  it("never counts super overs in player aggregates", async () => {
    // Gayle batted in the 2012 super over (533292); that World Cup season is its main innings only.
    const gayle = cricsheetIds.participant("db584dad");
    const card = cardsOf("t20i/533292.json");
    const mainInnings = card
      .filter((c) => !c.superOver)
      .flatMap((c) => c.batting)
      .find((b) => b.participantId === gayle);
    const superOver = card
      .filter((c) => c.superOver)
      .flatMap((c) => c.batting)
      .find((b) => b.participantId === gayle);
    expect(superOver?.runs).toBeGreaterThan(0);
    const worldCup = cricsheetIds.season(cricsheetIds.competition("male", "ICC Men's T20 World Cup"), "2012/13");
    expect((await aggregateOf(gayle, "season", worldCup))?.batting).toMatchObject({
      runs: mainInnings?.runs,
      innings: 1,
    });
  });

  it("leaves the other seasons' aggregates and tables as they stand when a fixture of one arrives", async () => {
    const ipl = cricsheetIds.competition("male", "Indian Premier League");
    const [season2015, season2016] = [cricsheetIds.season(ipl, "2015"), cricsheetIds.season(ipl, "2016")];
    const tables = (seasonId: string) => db.sql<{ metric: string; rows: string[]; version: string }[]>`
      select metric, rows, version::text from leaderboard where scope_type = 'season' and scope_id = ${seasonId} order by metric`;
    const before2016 = await tables(season2016);
    const kohli2016 = await aggregateOf(KOHLI, "season", season2016);
    const career = await aggregateOf(KOHLI, "career");

    await importCricsheet(store, [cricsheetFile("ipl/829713.json")]); // RCB in IPL 2015
    await runner.catchUp();

    expect(await tables(season2016)).toEqual(before2016); // same rows, same version: not ranked again
    expect(await aggregateOf(KOHLI, "season", season2016)).toEqual(kohli2016);
    const kohli2015 = await aggregateOf(KOHLI, "season", season2015);
    expect(kohli2015?.matches).toBe(1);
    expect((await aggregateOf(KOHLI, "career"))?.matches).toBe((career?.matches as number) + 1);
    expect((await tables(season2015)).map((t) => t.metric)).toContain("most_runs");
  });

  it("keeps a side's last naming and the last outcome of runs that name and decide a fixture again", async () => {
    const fixtureId = cricsheetIds.fixture("980903");
    const stream = `fixture-${fixtureId}`;
    // stat_fixture is the projector's own table, not a read model: read in its generation's schema.
    const schema = (await findGeneration(db.sql, statistics.name, "active"))?.schemaName ?? "";
    const kept = () => db.sql<{ squads: Record<string, string[]>; outcome: { winnerId: string } }[]>`
      select squads, outcome from ${db.sql(schema)}.stat_fixture where fixture_id = ${fixtureId}`;
    const [before] = await kept();
    const [home, away] = Object.keys(before?.squads ?? {}) as [string, string];
    const squadOf = (side: string) => before?.squads[side] ?? [];
    const again = (type: "SquadNamed" | "OutcomeRecorded", data: unknown) => ({
      id: crypto.randomUUID(),
      type,
      data: catalogue.parse(type, data),
      metadata: {
        actor: "test",
        occurredAt: new Date().toISOString(),
        schemaVersion: catalogue.definition(type).version,
      },
    });
    const outcome = (winnerId: string) => ({ ...before?.outcome, winnerId, by: { runs: 1 } });
    const events = await store.readStream(stream);
    await store.append(
      stream,
      [
        again("SquadNamed", { competitorId: home, participantIds: squadOf(home).slice(0, 5) }),
        again("SquadNamed", { competitorId: home, participantIds: squadOf(home).slice(0, 3) }),
        again("OutcomeRecorded", outcome(home)),
        again("OutcomeRecorded", outcome(away)),
      ],
      events.length - 1,
    );
    await runner.catchUp();
    const [after] = await kept();
    expect(after?.squads).toEqual({ [home]: squadOf(home).slice(0, 3), [away]: squadOf(away) });
    expect(after?.outcome).toEqual(outcome(away));
  });

  it("recomputes scorecards and aggregates when a delivery is corrected, and a replay changes nothing", async () => {
    const fixtureId = cricsheetIds.fixture("981019");
    const events = await store.readStream(`fixture-${fixtureId}`);
    const kohliBall = events.find(
      (e) =>
        e.type === "DeliveryRecorded" &&
        (e.data as { strikerId: string }).strikerId === KOHLI &&
        (e.data as { runs: { offBat: number } }).runs.offBat === 1,
    );
    const {
      eventId,
      sequenceNumber: _s,
      submissionId: _id,
      ...state
    } = (kohliBall as NonNullable<typeof kohliBall>).data as Record<string, unknown> & {
      eventId: string;
      runs: { offBat: number; extras: number; total: number };
    };
    const correction = (revision: number, offBat: number) => ({
      id: crypto.randomUUID(),
      type: DeliveryCorrected.type,
      data: {
        eventId,
        revision,
        reason: "scorer's error",
        delivery: { ...state, runs: { offBat, extras: state.runs.extras, total: state.runs.extras + offBat } },
      },
      metadata: { actor: "test", occurredAt: new Date().toISOString(), schemaVersion: DeliveryCorrected.version },
    });
    const before = await aggregateOf(KOHLI, "career");
    await store.append(`fixture-${fixtureId}`, [correction(2, 5)], events.length - 1);
    await runner.catchUp();
    expect((await aggregateOf(KOHLI, "career"))?.batting.runs).toBe((before?.batting.runs as number) + 4);

    // Two corrections of one delivery in one batch: the later revision stands, though it
    // spells the delivery's id in upper case (a uuid is the same id either way).
    const later = correction(4, 3);
    await store.append(
      `fixture-${fixtureId}`,
      [correction(3, 2), { ...later, data: { ...later.data, eventId: eventId.toUpperCase() } }],
      events.length,
    );
    await runner.catchUp();
    const after = await aggregateOf(KOHLI, "career");
    expect(after?.batting.runs).toBe((before?.batting.runs as number) + 2);

    await runner.rebuild("statistics");
    expect(await aggregateOf(KOHLI, "career")).toEqual(after);

    // The log applied once more changes nothing: the whole of it, or only the recordings,
    // which come after their corrections then (a kept delivery is never recorded over; the
    // revision the statistics are stamped with is the batch's last, here an old one).
    const derived = async () => ({
      ...(await snapshot(db.sql, ["player_aggregate", "player_line", "player_fixture"])),
      fixtures: await db.sql`select fixture_id, statistics from fixture_statistics order by 1`,
      leaderboard: await db.sql`select scope_type, scope_id, metric, rows from leaderboard order by 1, 2, 3`,
    });
    const rebuilt = await derived();
    await replayWholeLog(db.sql, store, statistics);
    expect(await derived()).toEqual(rebuilt);
    await replayWholeLog(db.sql, store, statistics, (e) => e.type === "DeliveryRecorded");
    expect(await derived()).toEqual(rebuilt);
  }, 120_000);
});
