import { randomUUID } from "node:crypto";
import { aFixture, type FixtureBuilder, type FixtureOptions } from "./cricket-builders.js";

/* Valid direct-submission content, without test-runner imports, so benchmarks use it too. */

/** The dismissal vocabulary every submission test fixture has. */
export const KINDS = ["bowled", "caught", "lbw", "run out", "stumped", "retired hurt"];

export type SubmittedEvent = {
  eventId: string;
  inningsId: string;
  sequenceNumber: number;
  overNumber: number;
  positionInOver: number;
  ballNumber?: string;
  strikerId: string;
  nonStrikerId: string;
  bowlerId: string;
  runs: { offBat: number; extras: number; total: number; nonBoundary?: boolean };
  extras: Record<string, number>;
  wickets: { kind: string; playerOutId: string; fielders: { participantId: string; substitute: boolean }[] }[];
};

/**
 * A fixture ready for submissions: scheduled, both squads named, `innings` innings opened
 * and no deliveries yet, with the dismissal vocabulary registered. A T20 unless `matchType`
 * says otherwise: more than 120 balls an innings need a Test.
 */
export function anOpenFixture({
  innings = 2,
  matchType,
}: {
  innings?: number;
  matchType?: FixtureOptions["matchType"];
} = {}): FixtureBuilder {
  const fixture = aFixture({ matchType });
  for (let i = 0; i < innings; i++) fixture.withInnings({ deliveries: 0 });
  return fixture;
}

/**
 * `count` valid events of innings `ordinal`, from sequence `from` (1 by default) on: six
 * legal balls an over, runs off the bat in a cycle, a caught wicket every tenth ball.
 */
export function validEvents(fixture: FixtureBuilder, count: number, { ordinal = 0, from = 1 } = {}): SubmittedEvent[] {
  const innings = fixture.innings[ordinal];
  if (!innings) throw new Error(`innings ${ordinal} is not open`);
  const batters = innings.batting.players.map((p) => p.id);
  const fielders = innings.bowling.players.map((p) => p.id);
  return Array.from({ length: count }, (_, i) => {
    const n = from - 1 + i;
    const overNumber = Math.floor(n / 6);
    const offBat = [0, 1, 4, 0, 2, 6][n % 6] as number;
    const out = n % 10 === 9;
    return {
      eventId: randomUUID(),
      inningsId: innings.inningsId,
      sequenceNumber: n + 1,
      overNumber,
      positionInOver: n % 6,
      ballNumber: `${overNumber}.${(n % 6) + 1}`,
      strikerId: batters[0] as string,
      nonStrikerId: batters[1] as string,
      bowlerId: fielders[6 + (overNumber % 5)] as string,
      runs: out ? { offBat: 0, extras: 0, total: 0 } : { offBat, extras: 0, total: offBat },
      extras: {},
      wickets: out
        ? [
            {
              kind: "caught",
              playerOutId: batters[0] as string,
              fielders: [{ participantId: fielders[2] as string, substitute: false }],
            },
          ]
        : [],
    };
  });
}

export const submission = (fixture: FixtureBuilder, events: unknown[]) => ({
  fixtureId: fixture.id,
  schemaVersion: "1.0",
  events,
});

/** A submitted event's delivery with `changes`: the body of a correction (its sequence and id left out). */
export function correctionOf(
  fixture: FixtureBuilder,
  { eventId: _e, sequenceNumber: _s, ...event }: SubmittedEvent,
  changes: Partial<SubmittedEvent> = {},
  reason = "scorer's correction",
) {
  return { fixtureId: fixture.id, schemaVersion: "1.0", reason, event: { ...event, ...changes } };
}
