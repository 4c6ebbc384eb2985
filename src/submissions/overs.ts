import type { FixtureState } from "../../streams/fixture-state.js";

/** Overs an innings has in each format when the fixture does not say; none in multi-day cricket. */
const FORMAT_OVERS = { T20: 20, IT20: 20, ODI: 50, ODM: 50, Test: null, MDM: null } as const;

type Innings = { superOver: boolean };

/**
 * How many overs an innings of this fixture may hold, and how to say so: a super over has
 * one; a limited-overs innings its fixture's overs (the format's when the fixture does not
 * say); a multi-day innings has no limit (undefined).
 */
export function oversAllowed(fixture: FixtureState, innings: Innings): { count: number; message: string } | undefined {
  const scheduled = fixture.scheduled;
  if (!scheduled) return undefined;
  if (innings.superOver) return { count: 1, message: "A super over has one over: overNumber must be 0" };
  const count = scheduled.oversPerInnings ?? FORMAT_OVERS[scheduled.matchType];
  if (count === null) return undefined;
  return {
    count,
    message: `An innings of this ${scheduled.matchType} has ${count} overs: overNumber runs from 0 to ${count - 1}`,
  };
}
