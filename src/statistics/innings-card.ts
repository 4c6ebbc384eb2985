import { howOut } from "./how-out.js";
import {
  bowlerRuns,
  type Delivery,
  isBallFaced,
  isBowlerWicket,
  isDismissal,
  isFour,
  isLegal,
  isSix,
  oversNotation,
  rate,
} from "./rules.js";

export type InningsInput = {
  inningsId: string;
  ordinal: number;
  battingCompetitorId: string;
  bowlingCompetitorId: string;
  superOver: boolean;
  target: { runs: number; overs: number | null } | null;
  declared: boolean;
  forfeited: boolean;
  penaltyRuns: { pre: number; post: number };
  absentHurtIds: string[];
  /** Overs the umpires ended early (or late): the legal balls actually bowled in them. */
  miscountedOvers: { overNumber: number; balls: number }[];
};

export type BattingLine = {
  participantId: string;
  name: string;
  position: number;
  runs: number;
  balls: number;
  fours: number;
  sixes: number;
  strikeRate: number | null;
  dismissed: boolean;
  howOut: string;
  /** Dismissal kind, or null when not out (including retired hurt / retired not out, which keep the kind in howOut). */
  dismissalKind: string | null;
};

export type BowlingLine = {
  participantId: string;
  name: string;
  overs: string;
  legalBalls: number;
  maidens: number;
  runs: number;
  wickets: number;
  economy: number | null;
  wides: number;
  noBalls: number;
  dots: number;
  fours: number;
  sixes: number;
};

export type InningsCard = {
  inningsId: string;
  ordinal: number;
  battingCompetitorId: string;
  bowlingCompetitorId: string;
  superOver: boolean;
  batting: BattingLine[];
  didNotBat: string[];
  bowling: BowlingLine[];
  extras: { wides: number; noBalls: number; byes: number; legByes: number; penalty: number; total: number };
  total: {
    runs: number;
    wickets: number;
    overs: string;
    legalBalls: number;
    runRate: number | null;
    declared: boolean;
  };
  fallOfWickets: { wicket: number; score: number; participantId: string; name: string; overs: string }[];
  partnerships: { wicket: number; runs: number; balls: number; batters: [string, string] }[];
  perOver: { overNumber: number; runs: number; wickets: number; cumulativeRuns: number; cumulativeWickets: number }[];
  target: { runs: number; overs: number | null } | null;
};

type Names = (participantId: string) => string;

/**
 * One innings' scorecard from its current deliveries in occurrence order. Pure: the same
 * deliveries always give the same card, whatever order they were corrected in.
 */
export function inningsCard(
  innings: InningsInput,
  deliveries: readonly Delivery[],
  ballsPerOver: number,
  squad: readonly string[],
  name: Names,
): InningsCard {
  const batters = new Map<string, BattingLine>();
  const bowlers = new Map<
    string,
    BowlingLine & { overBalls: Map<number, { balls: number; runs: number; clean: boolean }> }
  >();
  const extras = {
    wides: 0,
    noBalls: 0,
    byes: 0,
    legByes: 0,
    penalty: innings.penaltyRuns.pre + innings.penaltyRuns.post,
  };
  const fallOfWickets: InningsCard["fallOfWickets"] = [];
  const partnerships: InningsCard["partnerships"] = [];
  const perOver = new Map<number, { runs: number; wickets: number }>();
  let runs = innings.penaltyRuns.pre;
  let wickets = 0;
  let legalBalls = 0;

  const batter = (id: string) => {
    let line = batters.get(id);
    if (!line) {
      line = {
        participantId: id,
        name: name(id),
        position: batters.size + 1,
        runs: 0,
        balls: 0,
        fours: 0,
        sixes: 0,
        strikeRate: null,
        dismissed: false,
        howOut: "not out",
        dismissalKind: null,
      };
      batters.set(id, line);
    }
    return line;
  };
  const bowler = (id: string) => {
    let line = bowlers.get(id);
    if (!line) {
      line = {
        participantId: id,
        name: name(id),
        overs: "0.0",
        legalBalls: 0,
        maidens: 0,
        runs: 0,
        wickets: 0,
        economy: null,
        wides: 0,
        noBalls: 0,
        dots: 0,
        fours: 0,
        sixes: 0,
        overBalls: new Map(),
      };
      bowlers.set(id, line);
    }
    return line;
  };

  for (const d of deliveries) {
    const striker = batter(d.strikerId);
    batter(d.nonStrikerId);
    const together = partnerships.at(-1)?.batters;
    if (!together?.includes(d.strikerId) || !together.includes(d.nonStrikerId)) {
      partnerships.push({ wicket: partnerships.length + 1, batters: [d.strikerId, d.nonStrikerId], runs: 0, balls: 0 });
    }
    const legal = isLegal(d);
    striker.runs += d.runs.offBat;
    if (isBallFaced(d)) striker.balls += 1;
    if (isFour(d)) striker.fours += 1;
    if (isSix(d)) striker.sixes += 1;

    const b = bowler(d.bowlerId);
    const charged = bowlerRuns(d);
    b.runs += charged;
    b.wides += d.extras.wides ?? 0;
    b.noBalls += d.extras.noBalls ?? 0;
    if (isFour(d)) b.fours += 1;
    if (isSix(d)) b.sixes += 1;
    if (legal) {
      b.legalBalls += 1;
      if (d.runs.total === 0) b.dots += 1;
    }
    const over = b.overBalls.get(d.overNumber) ?? { balls: 0, runs: 0, clean: true };
    over.balls += legal ? 1 : 0;
    over.runs += charged;
    b.overBalls.set(d.overNumber, over);

    extras.wides += d.extras.wides ?? 0;
    extras.noBalls += d.extras.noBalls ?? 0;
    extras.byes += d.extras.byes ?? 0;
    extras.legByes += d.extras.legByes ?? 0;
    extras.penalty += d.extras.penalty ?? 0;
    runs += d.runs.total;
    if (legal) legalBalls += 1;
    const partnership = partnerships.at(-1);
    if (partnership) {
      partnership.runs += d.runs.total;
      partnership.balls += legal ? 1 : 0;
    }
    const overTally = perOver.get(d.overNumber) ?? { runs: 0, wickets: 0 };
    overTally.runs += d.runs.total;

    for (const w of d.wickets) {
      const out = batter(w.playerOutId);
      out.howOut = howOut(w, d.bowlerId, name);
      if (isBowlerWicket(w)) b.wickets += 1;
      if (!isDismissal(w)) continue;
      out.dismissed = true;
      out.dismissalKind = w.kind;
      wickets += 1;
      overTally.wickets += 1;
      fallOfWickets.push({
        wicket: wickets,
        score: runs,
        participantId: out.participantId,
        name: out.name,
        overs: oversNotation(legalBalls, ballsPerOver),
      });
    }
    perOver.set(d.overNumber, overTally);
  }
  runs += innings.penaltyRuns.post;

  // An over the umpires ended early counts as complete for maidens.
  const overLength = new Map(innings.miscountedOvers.map((o) => [o.overNumber, o.balls]));
  const bowling = [...bowlers.values()].map(({ overBalls, ...line }) => ({
    ...line,
    overs: oversNotation(line.legalBalls, ballsPerOver),
    maidens: [...overBalls].filter(
      ([overNumber, o]) => o.balls >= (overLength.get(overNumber) ?? ballsPerOver) && o.runs === 0,
    ).length,
    economy: rate(line.runs * ballsPerOver, line.legalBalls),
  }));
  const batting = [...batters.values()].map((line) => ({ ...line, strikeRate: rate(line.runs, line.balls, 100) }));
  let cumulativeRuns = innings.penaltyRuns.pre;
  let cumulativeWickets = 0;
  return {
    inningsId: innings.inningsId,
    ordinal: innings.ordinal,
    battingCompetitorId: innings.battingCompetitorId,
    bowlingCompetitorId: innings.bowlingCompetitorId,
    superOver: innings.superOver,
    batting,
    didNotBat: squad.filter((id) => !batters.has(id)).map(name),
    bowling,
    extras: { ...extras, total: extras.wides + extras.noBalls + extras.byes + extras.legByes + extras.penalty },
    total: {
      runs,
      wickets,
      overs: oversNotation(legalBalls, ballsPerOver),
      legalBalls,
      runRate: rate(runs * ballsPerOver, legalBalls),
      declared: innings.declared,
    },
    fallOfWickets,
    partnerships,
    perOver: [...perOver]
      .sort(([a], [b]) => a - b)
      .map(([overNumber, o]) => {
        cumulativeRuns += o.runs;
        cumulativeWickets += o.wickets;
        return { overNumber, runs: o.runs, wickets: o.wickets, cumulativeRuns, cumulativeWickets };
      }),
    target: innings.target,
  };
}
