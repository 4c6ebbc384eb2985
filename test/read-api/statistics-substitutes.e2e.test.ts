import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import type { DeliveryState } from "../../streams/fixture.js";
import { aFixture, aParticipant, type ParticipantBuilder } from "../support/cricket-builders.js";
import { deliveriesIn, matchFiles, readMatch } from "../support/cricsheet.js";
import { openReadApi, type ReadApi } from "../support/read-api.js";
import { importMatches } from "../support/statistics.js";

/**
 * A substitute fielder is not playing the match: the record books credit them with neither
 * the match nor the catches, stumpings and run outs they make, which stay on the scorecard
 * as "c sub (X)". The bowler keeps the wicket.
 */
const IPL_2008 = matchFiles("ipl", 335982, 336040);
const IPL = cricsheetIds.competition("male", "Indian Premier League");
const JADEJA = cricsheetIds.participant("fe93fd9d");
const SMITH = cricsheetIds.participant("30a45b23");
const T20_WORLD_CUP_2022 = "t20i/1298165.json"; // Australia v Ireland: SPD Smith's two catches as a substitute

type Aggregate = {
  statisticId: string;
  matches: number;
  bowling: { wickets: number };
  fielding: { catches: number; stumpings: number; runOuts: number };
};

let r: ReadApi;
beforeAll(async () => {
  r = await openReadApi();
  await importMatches(r.world, [...IPL_2008, T20_WORLD_CUP_2022]);
}, 120_000);
afterAll(() => r?.close());

const aggregates = async (participantId: string, query = "") => {
  const res = await r.api.get(`/api/v1/participants/${participantId}/statistics${query}`);
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: Aggregate[] }).data;
};

/** Catches a player made in the files (caught and bowled included), as a named player and as a substitute. */
function catchesIn(files: readonly string[], name: string) {
  const deliveries = files.flatMap((file) => deliveriesIn(readMatch(file)));
  const wickets = deliveries.flatMap((d) => (d.wickets ?? []).map((w) => ({ ...w, bowler: d.bowler })));
  const caught = wickets.filter((w) => w.kind === "caught").flatMap((w) => w.fielders ?? []);
  const returned = wickets.filter((w) => w.kind === "caught and bowled" && w.bowler === name).length;
  const by = caught.filter((f) => f.name === name);
  return {
    named: by.filter((f) => !f.substitute).length + returned,
    substitute: by.filter((f) => f.substitute).length,
  };
}

describe("substitute fielders in real matches", () => {
  it("RA Jadeja played 14 matches of IPL 2008, not 15: in 336033 he only fielded as a substitute", async () => {
    const catches = catchesIn(IPL_2008, "RA Jadeja");
    expect(catches.substitute).toBe(1);
    const seasonId = cricsheetIds.season(IPL, "2007/08");
    for (const query of [`?scope=season&seasonId=${seasonId}`, `?scope=competition&competitionId=${IPL}`, ""]) {
      const [aggregate] = await aggregates(JADEJA, query);
      expect(aggregate, query).toMatchObject({ matches: 14, fielding: { catches: catches.named } });
    }
    const scorecard = await r.api.get(`/api/v1/fixtures/${cricsheetIds.fixture("336033")}/statistics`);
    expect(scorecard.text).toContain('"howOut":"c sub (RA Jadeja) b ');
  });

  it("SPD Smith has no T20 World Cup 2022 aggregate from two catches as a substitute", async () => {
    expect(catchesIn([T20_WORLD_CUP_2022], "SPD Smith")).toEqual({ named: 0, substitute: 2 });
    expect(await aggregates(SMITH)).toEqual([]);
  });
});

describe("substitute fielders in a built match", () => {
  const fixture = aFixture();
  const [named, sub, runOutBy] = fixture.away.players as [ParticipantBuilder, ParticipantBuilder, ParticipantBuilder];
  const outsider = aParticipant({ name: "Twelfth Man" });
  // Innings 1: the away side fields. Dot balls; a wicket on the last ball of each of four overs.
  type Wicket = DeliveryState["wickets"][number];
  const fielder = (participantId: string, substitute: boolean) => ({ participantId, substitute });
  const out =
    (kind: string, ...fielders: Wicket["fielders"]) =>
    (striker: string) => ({
      kind,
      playerOutId: striker,
      fielders,
    });
  const wickets: Record<number, (striker: string) => Wicket> = {
    5: out("caught", fielder(named.id, false)),
    11: out("caught", fielder(sub.id, true)),
    17: out("caught", fielder(outsider.id, true)),
    23: out("run out", fielder(outsider.id, true), fielder(runOutBy.id, false)),
  };
  fixture.withInnings({
    deliveries: 24,
    wicketEvery: 1000,
    override: (index, delivery) => {
      const wicket = wickets[index];
      return {
        runs: { offBat: 0, extras: 0, total: 0 },
        extras: {},
        wickets: wicket ? [wicket(delivery.strikerId)] : [],
      };
    },
  });
  const career = async (participantId: string) => (await aggregates(participantId, "?scope=career"))[0];

  beforeAll(async () => {
    await r.world.given(outsider, fixture);
  });

  it("credits the match and the dismissals to named fielders only, the wicket to the bowler", async () => {
    expect(await career(named.id)).toMatchObject({ matches: 1, fielding: { catches: 1, stumpings: 0, runOuts: 0 } });
    // Named in the squad but fielding as a substitute (as an impact player may before coming on).
    expect(await career(sub.id)).toMatchObject({ matches: 1, fielding: { catches: 0, runOuts: 0 } });
    expect(await career(runOutBy.id)).toMatchObject({ matches: 1, fielding: { runOuts: 1 } });
    expect(await aggregates(outsider.id)).toEqual([]);

    const bowlers = await Promise.all(fixture.away.players.slice(6, 10).map((p) => career(p.id)));
    expect(bowlers.map((b) => b?.bowling.wickets)).toEqual([1, 1, 1, 0]);
  });

  it("takes the credit back when a correction marks the catch as a substitute's", async () => {
    const delivery = fixture.inOccurrenceOrder()[5] as (typeof fixture.deliveries)[number];
    const wicket = out("caught", fielder(named.id, true))(delivery.state.strikerId);
    await r.world.append(fixture.correction(delivery.eventId, { wickets: [wicket] }));
    expect(await career(named.id)).toMatchObject({ matches: 1, fielding: { catches: 0 } });
  });
});
