import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import type { DeliveryState } from "../../streams/fixture.js";
import { aFixture } from "../support/cricket-builders.js";
import { matchFiles } from "../support/cricsheet.js";
import { openReadApi, type ReadApi } from "../support/read-api.js";
import { importMatches } from "../support/statistics.js";

/**
 * Equal values in a leaderboard are ordered by the metric's cricket tie-breaks, never by the
 * participant id; players level on all of them share a rank and are listed by name.
 */
const IPL = cricsheetIds.competition("male", "Indian Premier League");
const IPL_2009 = matchFiles("ipl", 392181, 392239);
const IPL_2010 = matchFiles("ipl", 419106, 419165); // season "2009/10"
const player = (registerId: string) => cricsheetIds.participant(registerId);

type Row = { rank: number; participantId: string; participantName: string; figures: Record<string, number> };

let r: ReadApi;
beforeAll(async () => {
  r = await openReadApi();
  await importMatches(r.world, [...IPL_2009, ...IPL_2010]);
}, 180_000);
afterAll(() => r?.close());

const table = async (scopeQuery: string, metric: string) => {
  const res = await r.api.get(`/api/v1/statistics/leaderboards?${scopeQuery}&metric=${metric}&limit=50`);
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: Row[] }).data;
};
const rowsOf = (rows: Row[], ...ids: string[]) => ids.map((id) => rows.find((row) => row.participantId === id));

describe("leaderboard ties in real seasons", () => {
  it("IPL 2009 bowling strike rate: M Muralitharan 18th and SK Warne 19th, 14 wickets in 300 balls each, 261 runs against 365", async () => {
    const rows = await table(`scope=season&seasonId=${cricsheetIds.season(IPL, "2009")}`, "best_bowling_strike_rate");
    const [muralitharan, warne] = rowsOf(rows, player("4ba44e19"), player("bb18be76"));
    expect([muralitharan, warne]).toMatchObject([
      { rank: 18, participantName: "M Muralitharan", figures: { wickets: 14, balls: 300, runsConceded: 261 } },
      { rank: 19, participantName: "SK Warne", figures: { wickets: 14, balls: 300, runsConceded: 365 } },
    ]);
  });

  it("IPL 2010 most wickets: SR Watson ahead of UT Yadav, 6/184 each, in 132 balls against 144", async () => {
    const rows = await table(`scope=season&seasonId=${cricsheetIds.season(IPL, "2009/10")}`, "most_wickets");
    const [watson, yadav] = rowsOf(rows, player("4329fbb5"), player("cc1e8c68"));
    expect([watson, yadav]).toMatchObject([
      { participantName: "SR Watson", figures: { wickets: 6, runsConceded: 184, balls: 132 } },
      { participantName: "UT Yadav", figures: { wickets: 6, runsConceded: 184, balls: 144 } },
    ]);
    expect(yadav?.rank).toBe((watson?.rank as number) + 1);
    expect(rows.indexOf(yadav as Row)).toBe(rows.indexOf(watson as Row) + 1);
  });
});

describe("leaderboard ties in a built season", () => {
  // The home side bats; the away side's players 7 to 11 ("… Player 7" to "… Player 11") bowl
  // overs 1 to 5, the fifth of 3 balls. Each over is dot balls but for a first-ball boundary
  // and a last-ball wicket, as the script says.
  const fixture = aFixture();
  const script: { runs: number; wicket: boolean }[] = [
    { runs: 4, wicket: true }, // Player 7: 1/4 in 6 balls
    { runs: 0, wicket: false }, // Player 8: 0/0
    { runs: 2, wicket: true }, // Player 9: 1/2 in 6 balls
    { runs: 4, wicket: true }, // Player 10: 1/4 in 6 balls, level with Player 7
    { runs: 4, wicket: true }, // Player 11: 1/4 in 3 balls
  ];
  fixture.withInnings({
    deliveries: 27,
    wicketEvery: 1000,
    override: (index, delivery): Partial<DeliveryState> => {
      const over = script[Math.floor(index / 6)] as (typeof script)[number];
      const last = index === 26 || index % 6 === 5;
      const runs = index % 6 === 0 ? over.runs : 0;
      return {
        runs: { offBat: runs, extras: 0, total: runs },
        extras: {},
        wickets: over.wicket && last ? [{ kind: "bowled", playerOutId: delivery.strikerId, fielders: [] }] : [],
      };
    },
  });
  const bowler = (n: number) => fixture.away.players[n - 1]?.id as string;

  beforeAll(async () => {
    await r.world.given(fixture);
  });

  it("most wickets: fewer runs, then fewer balls; players level on every figure share a rank, listed by name", async () => {
    const rows = await table(`scope=season&seasonId=${fixture.season.id}`, "most_wickets");
    expect(rows.map((row) => [row.rank, row.participantId])).toEqual([
      [1, bowler(9)],
      [2, bowler(11)],
      [3, bowler(10)], // "… Player 10" sorts before "… Player 7"
      [3, bowler(7)],
    ]);
    expect(rows.map((row) => [row.figures.wickets, row.figures.runsConceded, row.figures.balls])).toEqual([
      [1, 2, 6],
      [1, 4, 3],
      [1, 4, 6],
      [1, 4, 6],
    ]);
  });
});
