import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type InningsInput, inningsCard } from "../../src/statistics/innings-card.js";
import type { Delivery } from "../../src/statistics/rules.js";
import { CRICSHEET } from "../support/cricsheet.js";
import { cardsOf } from "../support/scorecards.js";

const summary = (relative: string) =>
  cardsOf(relative).map(
    (c) => `${c.total.runs}/${c.total.wickets} (${c.total.overs})${c.superOver ? " super over" : ""}`,
  );

describe("innings scorecards against published results", () => {
  it("Wellington 2023: England 435/8 dec, New Zealand 209 and 483 following on, England 256", () => {
    expect(summary("tests/1322356.json")).toEqual(["435/8 (87.1)", "209/10 (53.2)", "483/10 (162.3)", "256/10 (74.2)"]);
    expect(cardsOf("tests/1322356.json")[0]?.total.declared).toBe(true);
  });

  it("World Cup final 2019: 241/8 and 241 all out, then two super overs of 15", () => {
    expect(summary("odi/1144530.json")).toEqual([
      "241/8 (50.0)",
      "241/10 (50.0)",
      "15/0 (1.0) super over",
      "15/1 (1.0) super over",
    ]);
  });

  it("Adelaide 2020: India 36/9 with a batter retired not out, Hazlewood 5-3-8-5 and Cummins 10.2-4-21-4", () => {
    const india = cardsOf("tests/1223869.json")[2];
    expect(india?.total).toMatchObject({ runs: 36, wickets: 9, overs: "21.2" });
    const figures = india?.bowling.map((b) => [b.name, `${b.overs}-${b.maidens}-${b.runs}-${b.wickets}`]);
    expect(figures).toEqual([
      ["MA Starc", "6.0-3-7-0"],
      ["PJ Cummins", "10.2-4-21-4"],
      ["JR Hazlewood", "5.0-3-8-5"],
    ]);
    const shami = india?.batting.find((b) => b.name === "Mohammed Shami");
    expect(shami).toMatchObject({ dismissed: false, howOut: "retired not out", dismissalKind: null });
    expect(india?.fallOfWickets.map((f) => `${f.score}-${f.wicket}`)).toEqual([
      "7-1",
      "15-2",
      "15-3",
      "15-4",
      "15-5",
      "19-6",
      "26-7",
      "26-8",
      "31-9",
    ]);
    expect(india?.batting.find((b) => b.name === "MA Agarwal")).toMatchObject({
      howOut: "c TD Paine b JR Hazlewood",
      runs: 9,
      balls: 40,
    });
  });
});

describe("scorecard invariants over every sample and dev-subset fixture", () => {
  const files = readFileSync(`${CRICSHEET}/dev_subset.txt`, "utf8")
    .split("\n")
    .filter((line) => line.endsWith(".json"));

  it.each(files)("%s adds up", (file) => {
    for (const card of cardsOf(file)) {
      const batRuns = card.batting.reduce((n, b) => n + b.runs, 0);
      expect(batRuns + card.extras.total, "batting runs + extras = total").toBe(card.total.runs);
      const bowled = card.bowling.reduce((n, b) => n + b.runs, 0);
      expect(
        bowled + card.extras.byes + card.extras.legByes + card.extras.penalty,
        "bowler runs + byes + leg byes + penalty = total",
      ).toBe(card.total.runs);
      expect(card.batting.filter((b) => b.dismissed).length, "wickets = dismissals").toBe(card.total.wickets);
      expect(card.fallOfWickets).toHaveLength(card.total.wickets);
      expect(
        card.bowling.reduce((n, b) => n + b.legalBalls, 0),
        "legal balls = overs",
      ).toBe(card.total.legalBalls);
      expect(card.perOver.at(-1)?.cumulativeRuns ?? 0, "the worm ends at the total").toBe(card.total.runs);
      expect(card.partnerships.reduce((n, p) => n + p.runs, 0)).toBe(card.total.runs);
    }
  });
});

describe("cricket rules in the card", () => {
  const innings: InningsInput = {
    inningsId: "i1",
    ordinal: 0,
    battingCompetitorId: "A",
    bowlingCompetitorId: "B",
    superOver: false,
    target: null,
    declared: false,
    forfeited: false,
    penaltyRuns: { pre: 0, post: 0 },
    absentHurtIds: [],
    miscountedOvers: [],
  };
  let sequence = 0;
  const ball = (overNumber: number, over: Partial<Delivery> = {}): Delivery => ({
    eventId: `e${++sequence}`,
    inningsId: "i1",
    sequenceNumber: sequence,
    overNumber,
    positionInOver: 0,
    strikerId: "s",
    nonStrikerId: "n",
    bowlerId: "bw",
    runs: { offBat: 0, extras: 0, total: 0 },
    extras: {},
    wickets: [],
    ...over,
  });
  const card = (deliveries: Delivery[], overrides: Partial<InningsInput> = {}) =>
    inningsCard({ ...innings, ...overrides }, deliveries, 6, ["s", "n", "x"], (id) => id.toUpperCase());

  it("counts a maiden when byes and leg byes are all the over gave, not when a wide did", () => {
    const maiden = Array.from({ length: 6 }, (_, i) =>
      ball(0, i === 2 ? { runs: { offBat: 0, extras: 4, total: 4 }, extras: { byes: 4 } } : {}),
    );
    const spoiled = [
      ball(1, { runs: { offBat: 0, extras: 1, total: 1 }, extras: { wides: 1 } }),
      ...Array.from({ length: 6 }, () => ball(1)),
    ];
    const [bowler] = card([...maiden, ...spoiled]).bowling;
    expect(bowler).toMatchObject({ maidens: 1, runs: 1, wides: 1, legalBalls: 12, overs: "2.0", economy: 0.5 });
  });

  it("counts an over the umpires ended early as complete for a maiden", () => {
    const short = Array.from({ length: 5 }, () => ball(0));
    expect(card(short, { miscountedOvers: [{ overNumber: 0, balls: 5 }] }).bowling[0]?.maidens).toBe(1);
    expect(card(short).bowling[0]?.maidens).toBe(0);
  });

  it("faces no-balls but not wides, and counts a run four as no boundary", () => {
    const [striker] = card([
      ball(0, { runs: { offBat: 0, extras: 1, total: 1 }, extras: { wides: 1 } }),
      ball(0, { runs: { offBat: 4, extras: 1, total: 5 }, extras: { noBalls: 1 } }),
      ball(0, { runs: { offBat: 4, extras: 0, total: 4, nonBoundary: true } }),
      ball(0, { runs: { offBat: 6, extras: 0, total: 6 } }),
    ]).batting;
    expect(striker).toMatchObject({ runs: 14, balls: 3, fours: 1, sixes: 1, strikeRate: 466.67 });
  });

  it("credits the bowler with bowled, caught, lbw, stumped and hit wicket but not a run out, and ends a partnership on a retirement", () => {
    const c = card([
      ball(0, {
        wickets: [{ kind: "run out", playerOutId: "s", fielders: [{ participantId: "f", substitute: true }] }],
      }),
      ball(0, {
        strikerId: "x",
        wickets: [{ kind: "caught", playerOutId: "x", fielders: [{ participantId: "f", substitute: false }] }],
      }),
      ball(0, {
        strikerId: "n",
        nonStrikerId: "y",
        wickets: [{ kind: "retired hurt", playerOutId: "n", fielders: [] }],
      }),
    ]);
    expect(c.bowling[0]?.wickets).toBe(1);
    expect(c.total.wickets).toBe(2);
    expect(c.batting.map((b) => [b.participantId, b.howOut])).toEqual([
      ["s", "run out (sub (F))"],
      ["n", "retired hurt"],
      ["x", "c F b BW"],
      ["y", "not out"],
    ]);
    expect(c.partnerships.map((p) => p.batters)).toEqual([
      ["s", "n"],
      ["x", "n"],
      ["n", "y"],
    ]);
  });

  it("adds penalty runs awarded before and after the innings to the total and the extras", () => {
    const c = card([ball(0, { runs: { offBat: 1, extras: 0, total: 1 } })], { penaltyRuns: { pre: 5, post: 0 } });
    expect(c.total.runs).toBe(6);
    expect(c.extras).toMatchObject({ penalty: 5, total: 5 });
  });
});
