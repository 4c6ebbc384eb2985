/**
 * The rules of cricket the statistics follow (DESIGN.md §8), as small pure functions over
 * one delivery. Every figure in a scorecard or aggregate is built from these.
 */
export type Wicket = { kind: string; playerOutId: string; fielders: { participantId: string; substitute: boolean }[] };

export type Delivery = {
  eventId: string;
  inningsId: string;
  sequenceNumber: number;
  overNumber: number;
  positionInOver: number;
  strikerId: string;
  nonStrikerId: string;
  bowlerId: string;
  runs: { offBat: number; extras: number; total: number; nonBoundary?: boolean };
  extras: { wides?: number; noBalls?: number; byes?: number; legByes?: number; penalty?: number };
  wickets: Wicket[];
};

/** Dismissal kinds credited to the bowler. */
export const BOWLER_WICKETS: ReadonlySet<string> = new Set([
  "bowled",
  "caught",
  "caught and bowled",
  "lbw",
  "stumped",
  "hit wicket",
]);

/** Kinds that end a batter's innings without dismissing them. */
const NOT_DISMISSED: ReadonlySet<string> = new Set(["retired hurt", "retired not out"]);

export const isLegal = (d: Delivery) => !d.extras.wides && !d.extras.noBalls;

/** Balls faced exclude wides; a no-ball is a ball faced. */
export const isBallFaced = (d: Delivery) => !d.extras.wides;

export const isFour = (d: Delivery) => d.runs.offBat === 4 && !d.runs.nonBoundary;
export const isSix = (d: Delivery) => d.runs.offBat === 6 && !d.runs.nonBoundary;

/** Runs charged to the bowler: off the bat plus wides and no-balls; byes, leg byes and penalties are not. */
export const bowlerRuns = (d: Delivery) => d.runs.offBat + (d.extras.wides ?? 0) + (d.extras.noBalls ?? 0);

export const isDismissal = (w: Wicket) => !NOT_DISMISSED.has(w.kind);

export const isBowlerWicket = (w: Wicket) => BOWLER_WICKETS.has(w.kind);

/** Balls in overs notation: 171 balls of 6 is "28.3". */
export const oversNotation = (legalBalls: number, ballsPerOver: number) =>
  `${Math.floor(legalBalls / ballsPerOver)}.${legalBalls % ballsPerOver}`;

/**
 * Rates are published with the figures behind them and rounded half away from zero to two
 * decimals (not truncated, unlike some published tables); null when the divisor is zero.
 * Whole-number figures are rounded exactly, in integers: 436 runs in 320 balls is an economy
 * of 8.175, so 8.18, where floating point would give 8.17.
 */
export function rate(numerator: number, denominator: number, factor = 1): number | null {
  if (denominator === 0) return null;
  const hundredths = numerator * factor * 100;
  if (Number.isSafeInteger(2 * hundredths + denominator) && Number.isInteger(denominator)) {
    const sign = Math.sign(hundredths) * Math.sign(denominator);
    const [n, d] = [Math.abs(hundredths), Math.abs(denominator)];
    return (sign * Math.floor((2 * n + d) / (2 * d))) / 100;
  }
  return Math.round(hundredths / denominator + Number.EPSILON) / 100;
}
