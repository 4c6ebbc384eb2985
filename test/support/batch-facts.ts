import { randomUUID } from "node:crypto";
import type { BatchFacts, FixtureCandidate, FixtureFacts } from "../../src/batches/judge.js";
import type { Candidate } from "../../src/batches/references.js";
import { evolveFixture, initialFixtureState } from "../../streams/fixture-state.js";
import { aPackageOf, packageEventOf } from "./batches.js";
import type {
  BuiltDelivery,
  FixtureBuilder,
  ParticipantBuilder,
  SeasonBuilder,
  TeamBuilder,
} from "./cricket-builders.js";
import { KINDS } from "./submission-events.js";

/**
 * What batch validation would read of the read models and the fixtures' streams, built by
 * hand from fixture builders, so `judgeBatch` can be tested alone: the competition's
 * fixtures and seasons, the ledgers, and where each built delivery is published.
 */
export function batchFactsOf(
  competitionId: string,
  published: readonly FixtureBuilder[],
  { seasons = [] as SeasonBuilder[] } = {},
): BatchFacts {
  const own = published.filter((f) => f.competition.id === competitionId);
  const players = published.flatMap((f) => [...f.home.players, ...f.away.players]);
  return {
    competitionId,
    fixtures: own.map(fixtureCandidate),
    seasons: [...new Set([...own.map((f) => f.season), ...seasons])].map(seasonCandidate),
    byFixture: new Map(own.map((f) => [f.id, fixtureFacts(f)])),
    substitutes: [],
    targets: new Map(
      published.flatMap((f) =>
        f.deliveries.map((d) => [d.eventId, { fixtureId: f.id, competitionId: f.competition.id }]),
      ),
    ),
    reference: {
      dismissalKinds: new Set([...KINDS, "caught and bowled"]),
      registered: new Set(players.map((p) => p.id)),
      accepted: new Set(published.flatMap((f) => f.deliveries.map((d) => d.eventId))),
    },
  };
}

const team = (t: TeamBuilder): Candidate => ({
  id: t.id,
  name: t.name,
  names: [],
  sourceIds: [`cricsheet:team:${t.id}`],
});
const person = (p: ParticipantBuilder): Candidate => ({
  id: p.id,
  name: p.name,
  names: p.alternativeNames,
  sourceIds: [`cricsheet:participant:${p.id}`],
});

/** A season as the read model names it: its label, which is also its name while its fixtures span one year. */
const seasonCandidate = (s: SeasonBuilder): Candidate => ({ id: s.id, name: s.label, names: [s.label], sourceIds: [] });

const fixtureCandidate = (f: FixtureBuilder): FixtureCandidate => ({
  id: f.id,
  name: `${f.startDate} ${f.home.name} v ${f.away.name}`,
  names: [],
  sourceIds: [`cricsheet:match:${f.id}`],
  date: f.startDate,
  seasonId: f.season.id,
  competitors: [team(f.home), team(f.away)],
});

const fixtureFacts = (f: FixtureBuilder): FixtureFacts => ({
  state: f.ledger().reduce(evolveFixture, initialFixtureState()),
  innings: f.innings.map((i) => ({
    inningsId: i.inningsId,
    ordinal: i.ordinal,
    battingCompetitorId: i.batting.id,
    bowlingCompetitorId: i.bowling.id,
  })),
  squads: new Map([f.home, f.away].map((t) => [t.id, t.players.map(person)])),
});

/** A package event correcting `delivery` of `fixture` to its state with `changes`, under an item id of its own. */
export function packageCorrectionOf(
  fixture: FixtureBuilder,
  delivery: BuiltDelivery,
  changes: Partial<BuiltDelivery["state"]> = {},
): Record<string, unknown> {
  const { ballNumber, ...state } = { ...delivery.state, ...changes };
  const event = {
    ...state,
    ...(ballNumber ? { ballNumber } : {}),
    eventId: randomUUID(),
    sequenceNumber: delivery.sequenceNumber,
  };
  return { ...packageEventOf(fixture, event), operation: "correction", correctsEventId: delivery.eventId };
}

/** A 1.1 package of `fixture` whose innings `ordinal` holds `events` as they are (package events). */
export function aPackageWith(fixture: FixtureBuilder, events: unknown[], { ordinal = 0 } = {}) {
  const pkg = aPackageOf(fixture, [], { ordinal });
  const [packaged] = pkg.fixtures as unknown as { innings: { events: unknown[] }[] }[];
  const [innings] = packaged?.innings ?? [];
  if (innings) innings.events = events;
  return pkg;
}
