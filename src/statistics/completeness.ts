import type { InningsInput } from "./innings-card.js";
import { type Delivery, isLegal } from "./rules.js";

export type CompletenessIssue = {
  code: "SEQUENCE_GAP" | "MISSING_OVERS" | "SHORT_OVER" | "EMPTY_INNINGS" | "NO_INNINGS";
  inningsId: string | null;
  message: string;
};

export type Completeness = { state: "complete" | "incomplete"; issues: CompletenessIssue[] };

/**
 * Whether the ledger holds every ball of the fixture, and if not, why: a gap in an
 * innings' occurrence sequence, overs with no deliveries, an over short of legal balls that
 * is not the innings' last (and not one the umpires ended early), an innings with no
 * deliveries that was not forfeited, or no innings at all in a fixture with a result.
 */
export function completeness(
  innings: readonly InningsInput[],
  deliveries: readonly Delivery[],
  ballsPerOver: number,
  result: string | null,
): Completeness {
  const issues: CompletenessIssue[] = [];
  if (innings.length === 0 && result !== null && result !== "no result") {
    issues.push({
      code: "NO_INNINGS",
      inningsId: null,
      message: `the fixture has a result (${result}) but no innings`,
    });
  }
  for (const inn of innings) {
    const own = deliveries.filter((d) => d.inningsId === inn.inningsId);
    if (own.length === 0) {
      if (!inn.forfeited)
        issues.push({
          code: "EMPTY_INNINGS",
          inningsId: inn.inningsId,
          message: `innings ${inn.ordinal} has no deliveries`,
        });
      continue;
    }
    const sequences = own.map((d) => d.sequenceNumber).sort((a, b) => a - b);
    const missing = (sequences.at(-1) as number) - sequences.length;
    if (sequences[0] !== 1 || missing > 0) {
      issues.push({
        code: "SEQUENCE_GAP",
        inningsId: inn.inningsId,
        message: `innings ${inn.ordinal} is missing ${Math.max(missing, 1)} occurrence(s) of its sequence`,
      });
    }
    const legalByOver = new Map<number, number>();
    for (const d of own) legalByOver.set(d.overNumber, (legalByOver.get(d.overNumber) ?? 0) + (isLegal(d) ? 1 : 0));
    const lastOver = Math.max(...legalByOver.keys());
    const absent = Array.from({ length: lastOver + 1 }, (_, over) => over).filter((over) => !legalByOver.has(over));
    if (absent.length > 0) {
      issues.push({
        code: "MISSING_OVERS",
        inningsId: inn.inningsId,
        message: `innings ${inn.ordinal} has no deliveries in over(s) ${absent.join(", ")}`,
      });
    }
    const endedEarly = new Set(inn.miscountedOvers.map((o) => o.overNumber));
    for (const [over, legal] of legalByOver) {
      if (over !== lastOver && legal < ballsPerOver && !endedEarly.has(over)) {
        issues.push({
          code: "SHORT_OVER",
          inningsId: inn.inningsId,
          message: `over ${over} of innings ${inn.ordinal} has ${legal} legal balls of ${ballsPerOver}`,
        });
      }
    }
  }
  return { state: issues.length === 0 ? "complete" : "incomplete", issues };
}
