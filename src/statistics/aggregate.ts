import type { KeptLine } from "./player-lines.js";
import { oversNotation, rate } from "./rules.js";

/** A player's innings line with where it was played, for summing over a scope. */
export type ScopedLine = KeptLine & { fixtureId: string; ballsPerOver: number };

export type PlayerAggregate = {
  matches: number;
  batting: {
    innings: number;
    notOuts: number;
    runs: number;
    balls: number;
    highestScore: string | null;
    highest: { runs: number; notOut: boolean } | null;
    average: number | null;
    strikeRate: number | null;
    fifties: number;
    hundreds: number;
    ducks: number;
    fours: number;
    sixes: number;
  };
  bowling: {
    innings: number;
    balls: number;
    overs: string;
    maidens: number;
    runs: number;
    wickets: number;
    bestFigures: string | null;
    best: { wickets: number; runs: number } | null;
    average: number | null;
    economy: number | null;
    strikeRate: number | null;
    fourWickets: number;
    fiveWickets: number;
  };
  fielding: { catches: number; stumpings: number; runOuts: number };
};

/**
 * Sums a player's lines over a scope (season, competition, career). `matches` counts the
 * fixtures the player was named in (the squad), whether or not they batted or bowled; a
 * substitute fielder is not credited with the match. Overs and economy
 * respect each fixture's balls per over.
 */
export function aggregate(lines: readonly ScopedLine[], matches: number): PlayerAggregate {
  const sum = (pick: (l: ScopedLine) => number) => lines.reduce((n, l) => n + pick(l), 0);
  const batted = lines.filter((l) => l.batted);
  const bowled = lines.filter((l) => l.bowledBalls > 0 || l.runsConceded > 0);
  const runs = sum((l) => l.runs);
  const balls = sum((l) => l.balls);
  const dismissals = batted.filter((l) => l.dismissed).length;
  const highest = batted.reduce<{ runs: number; notOut: boolean } | null>((best, l) => {
    const candidate = { runs: l.runs, notOut: !l.dismissed };
    if (!best || candidate.runs > best.runs || (candidate.runs === best.runs && candidate.notOut && !best.notOut))
      return candidate;
    return best;
  }, null);
  const wickets = sum((l) => l.wickets);
  const conceded = sum((l) => l.runsConceded);
  const bowledBalls = sum((l) => l.bowledBalls);
  // Economy in whole numbers: balls counted in 1/unit of an over, unit a common multiple of every over length.
  const unit = lines.reduce((u, l) => (u % l.ballsPerOver === 0 ? u : u * l.ballsPerOver), 1);
  const bowledUnits = lines.reduce((n, l) => n + l.bowledBalls * (unit / l.ballsPerOver), 0);
  const best = bowled.reduce<{ wickets: number; runs: number } | null>((top, l) => {
    const candidate = { wickets: l.wickets, runs: l.runsConceded };
    if (!top || candidate.wickets > top.wickets || (candidate.wickets === top.wickets && candidate.runs < top.runs))
      return candidate;
    return top;
  }, null);
  // Overs notation sums whole overs and spare balls; mixed balls-per-over fixtures are rare.
  const ballsPerOver = lines[0]?.ballsPerOver ?? 6;
  return {
    matches,
    batting: {
      innings: batted.length,
      notOuts: batted.length - dismissals,
      runs,
      balls,
      highestScore: highest ? `${highest.runs}${highest.notOut ? "*" : ""}` : null,
      highest,
      average: rate(runs, dismissals),
      strikeRate: rate(runs, balls, 100),
      fifties: batted.filter((l) => l.runs >= 50 && l.runs < 100).length,
      hundreds: batted.filter((l) => l.runs >= 100).length,
      ducks: batted.filter((l) => l.runs === 0 && l.dismissed).length,
      fours: sum((l) => l.fours),
      sixes: sum((l) => l.sixes),
    },
    bowling: {
      innings: bowled.length,
      balls: bowledBalls,
      overs: oversNotation(bowledBalls, ballsPerOver),
      maidens: sum((l) => l.maidens),
      runs: conceded,
      wickets,
      bestFigures: best ? `${best.wickets}/${best.runs}` : null,
      best,
      average: rate(conceded, wickets),
      economy: rate(conceded * unit, bowledUnits),
      strikeRate: rate(bowledBalls, wickets),
      fourWickets: bowled.filter((l) => l.wickets === 4).length,
      fiveWickets: bowled.filter((l) => l.wickets >= 5).length,
    },
    fielding: { catches: sum((l) => l.catches), stumpings: sum((l) => l.stumpings), runOuts: sum((l) => l.runOuts) },
  };
}
