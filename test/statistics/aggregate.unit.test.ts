import { describe, expect, it } from "vitest";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { aggregate, type ScopedLine } from "../../src/statistics/aggregate.js";
import { inningsCard } from "../../src/statistics/innings-card.js";
import { playerLines } from "../../src/statistics/player-lines.js";
import { fixtureOf } from "../support/scorecards.js";

/** IPL 2016: the 60 files of the dev subset. */
const season = Array.from({ length: 60 }, (_, i) => `ipl/${980901 + 2 * i}.json`);

function seasonLines() {
  const lines: (ScopedLine & { participantId: string })[] = [];
  const named = new Map<string, Set<string>>();
  for (const file of season) {
    const { fixture } = fixtureOf(file);
    for (const squad of fixture.squads) {
      for (const id of squad.participantIds)
        named.set(id, (named.get(id) ?? new Set()).add(fixture.scheduled.fixtureId));
    }
    for (const innings of fixture.innings) {
      const deliveries = fixture.deliveries.filter((d) => d.inningsId === innings.inningsId);
      const card = inningsCard(innings, deliveries, 6, [], (id) => id);
      lines.push(
        ...playerLines(card, deliveries).map((l) => ({
          ...l,
          fixtureId: fixture.scheduled.fixtureId,
          ballsPerOver: 6,
        })),
      );
    }
  }
  return { lines, named };
}

describe("player aggregates over IPL 2016 against published season records", () => {
  const { lines, named } = seasonLines();
  const of = (registerId: string) => {
    const id = cricsheetIds.participant(registerId);
    return aggregate(
      lines.filter((l) => l.participantId === id),
      named.get(id)?.size ?? 0,
    );
  };

  it("V Kohli: 973 runs in 16 innings, 4 not out, 4 hundreds, 7 fifties, highest 113", () => {
    expect(of("ba607b88").batting).toMatchObject({
      innings: 16,
      notOuts: 4,
      runs: 973,
      balls: 640,
      highestScore: "113",
      average: 81.08,
      strikeRate: 152.03,
      hundreds: 4,
      fifties: 7,
      fours: 83,
      sixes: 38,
    });
    expect(of("ba607b88").matches).toBe(16);
  });

  it("B Kumar: 23 wickets in 17 matches, best 4/29, average 21.30, economy 7.42", () => {
    const kumar = of("2e81a32d");
    expect(kumar.matches).toBe(17);
    expect(kumar.bowling).toMatchObject({
      wickets: 23,
      bestFigures: "4/29",
      average: 21.3,
      economy: 7.42,
      fourWickets: 1,
      fiveWickets: 0,
    });
  });
});
