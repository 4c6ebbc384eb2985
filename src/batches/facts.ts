import { fixtureCatalogue, fixtureStream } from "../../streams/fixture.js";
import { evolveFixture, initialFixtureState } from "../../streams/fixture-state.js";
import { loadStream } from "../commands/handle.js";
import type { Sql } from "../db/database.js";
import type { EventStore } from "../event-store/port.js";
import type { PackageEvent, PackageReference, ReadPackage } from "../ingest/batches/package.js";
import { referenceFacts } from "../submissions/facts.js";
import type { CanonicalFacts } from "./canonical-fixture.js";
import type { CorrectionTarget } from "./corrections.js";
import { resolveFixtures } from "./fixtures.js";
import type { BatchFacts, FixtureCandidate, FixtureFacts } from "./judge.js";
import { APP_NAMESPACE, type Candidate, candidatesFor } from "./references.js";

/**
 * What validation consults, read once per batch: the competition's fixtures and seasons as
 * references may name them, then, for the fixtures the package names, their streams,
 * innings and squads; where the deliveries its corrections name are published; and what the
 * direct submissions' checks consult (src/submissions/facts.ts).
 */
export async function batchFacts(
  deps: { sql: Sql; store: EventStore },
  read: ReadPackage,
  competitionId: string,
): Promise<BatchFacts> {
  const fixtures = await fixtureCandidates(deps.sql, competitionId);
  const seasons = await seasonCandidates(deps.sql, competitionId);
  const targets = await correctionTargets(deps.sql, read);
  const named = [...new Set(resolveFixtures(read, fixtures).flatMap((r) => r.id ?? []))];
  const byFixture = new Map<string, FixtureFacts>();
  for (const fixtureId of named) byFixture.set(fixtureId, await fixtureFacts(deps, fixtureId));
  const substitutes = await substituteCandidates(deps.sql, read);
  const squadMembers = [...byFixture.values()].flatMap((f) => [...f.squads.values()].flat().map((c) => c.id));
  const reference = await referenceFacts(deps.sql, {
    eventIds: read.items.flatMap((i) => i.event?.eventId ?? []),
    participantIds: [...new Set([...squadMembers, ...substitutes.map((c) => c.id)])],
  });
  return { competitionId, fixtures, seasons, byFixture, substitutes, targets, reference };
}

/**
 * What a canonical fixture of the package's fixture at `index` may name: the competition's
 * seasons, the teams of the proposal's gender and type, the people who have played for the
 * teams its context names, and the people its deliveries name by source id or by name
 * (compared in lower case here, then as names are compared, accents aside, by the builder).
 */
export async function canonicalFacts(
  sql: Sql,
  read: ReadPackage,
  index: number,
  competitionId: string,
): Promise<CanonicalFacts> {
  const fixture = read.fixtures[index]?.value;
  const seasons = await seasonCandidates(sql, competitionId);
  const proposal = fixture?.proposal;
  if (!fixture || !proposal) return { seasons, teams: [], squadsOf: new Map(), people: [] };
  const teams = (
    await sql<Named[]>`
      select competitor_id as id, name, alternative_names, source_ids from competitor
      where gender = ${proposal.gender} and team_type = ${proposal.teamType}`
  ).map(candidate);
  const named = [...new Set(fixture.context.teams.flatMap((t) => candidatesFor(t, teams).map((c) => c.id)))];
  const squadsOf = new Map<string, Candidate[]>();
  for (const m of await sql<(Named & { competitor_id: string })[]>`
    select distinct s.competitor_id, p.participant_id as id, p.name, p.alternative_names, p.source_ids
    from squad_member s join participant p on p.participant_id = s.participant_id
    where s.competitor_id = any(${named})`)
    squadsOf.set(m.competitor_id, [...(squadsOf.get(m.competitor_id) ?? []), candidate(m)]);
  const references = read.items.flatMap((i) => (i.fixtureIndex === index && i.event ? referencesOf(i.event) : []));
  const sourceIds = [...new Set(references.flatMap((r) => r.sourceId ?? []))];
  const canonical = sourceIds.flatMap((s) =>
    s.startsWith(`${APP_NAMESPACE}:participant:`) ? [s.split(":").slice(2).join(":")] : [],
  );
  const names = [...new Set(references.flatMap((r) => (r.context?.name ? [r.context.name.toLowerCase()] : [])))];
  const people = await sql<Named[]>`
    select participant_id as id, name, alternative_names, source_ids from participant
    where source_ids && ${sourceIds} or participant_id = any(${canonical}) or lower(name) = any(${names})
      or exists (select 1 from unnest(alternative_names) as n where lower(n) = any(${names}))`;
  return { seasons, teams, squadsOf, people: people.map(candidate) };
}

/** Every person a delivery names. */
const referencesOf = (e: PackageEvent): PackageReference[] => [
  e.striker,
  e.nonStriker,
  e.bowler,
  ...e.wickets.flatMap((w) => [w.playerOut, ...w.fielders.map((f) => f.participant)]),
];

/** The competition's seasons, each by its name ("2008") and its source label ("2007/08"). */
async function seasonCandidates(sql: Sql, competitionId: string): Promise<Candidate[]> {
  const rows = await sql<{ season_id: string; name: string; label: string }[]>`
    select season_id, name, label from season where competition_id = ${competitionId}`;
  return rows.map((r) => ({ id: r.season_id, name: r.name, names: [r.label], sourceIds: [] }));
}

/**
 * Where each delivery the package's corrections name is published, in one read: its fixture
 * and that fixture's competition. An id no current delivery has is absent, as is one whose
 * fixture the `fixtures` read model does not show yet (the read models may trail the log).
 */
async function correctionTargets(sql: Sql, read: ReadPackage): Promise<Map<string, CorrectionTarget>> {
  const ids = [...new Set(read.items.flatMap((i) => i.event?.correctsEventId ?? []))];
  if (ids.length === 0) return new Map();
  const rows = await sql<{ event_id: string; fixture_id: string; competition_id: string }[]>`
    select d.event_id::text, d.fixture_id, f.competition_id
    from delivery d join fixture f on f.fixture_id = d.fixture_id
    where d.event_id = any(${ids}::uuid[])`;
  return new Map(rows.map((r) => [r.event_id, { fixtureId: r.fixture_id, competitionId: r.competition_id }]));
}

/** The participants substitute fielders name by a source id they were registered with. */
async function substituteCandidates(sql: Sql, read: ReadPackage): Promise<Candidate[]> {
  const sourceIds = [
    ...new Set(
      read.items.flatMap(
        (i) =>
          i.event?.wickets.flatMap((w) =>
            w.fielders.flatMap((f) => (f.substitute && f.participant.sourceId ? [f.participant.sourceId] : [])),
          ) ?? [],
      ),
    ),
  ];
  if (sourceIds.length === 0) return [];
  const canonical = sourceIds.flatMap((s) =>
    s.startsWith(`${APP_NAMESPACE}:participant:`) ? [s.split(":").slice(2).join(":")] : [],
  );
  const rows = await sql<Named[]>`
    select participant_id as id, name, alternative_names, source_ids from participant
    where source_ids && ${sourceIds} or participant_id = any(${canonical})`;
  return rows.map(candidate);
}

type Named = { id: string; name: string; alternative_names: string[]; source_ids: string[] };
const candidate = (r: Named): Candidate => ({
  id: r.id,
  name: r.name,
  names: r.alternative_names,
  sourceIds: r.source_ids,
});

/** The competition's fixtures, each with its date and its competitors under every name they go by. */
async function fixtureCandidates(sql: Sql, competitionId: string): Promise<FixtureCandidate[]> {
  const rows = await sql<
    {
      fixture_id: string;
      season_id: string;
      start_date: string;
      source_id: string | null;
      competitors: { competitorId: string; name: string }[];
    }[]
  >`
    select fixture_id, season_id, start_date::text, source->>'sourceId' as source_id, competitors
    from fixture where competition_id = ${competitionId}`;
  const ids = [...new Set(rows.flatMap((r) => r.competitors.map((c) => c.competitorId)))];
  const teams = new Map(
    (
      await sql<Named[]>`
        select competitor_id as id, name, alternative_names, source_ids from competitor where competitor_id = any(${ids})`
    ).map((r) => [r.id, candidate(r)]),
  );
  return rows.map((r) => {
    const competitors = r.competitors.map((c) => {
      const team = teams.get(c.competitorId);
      return {
        id: c.competitorId,
        name: c.name,
        names: team ? [team.name, ...team.names] : [],
        sourceIds: team?.sourceIds ?? [],
      };
    });
    return {
      id: r.fixture_id,
      name: `${r.start_date} ${competitors.map((c) => c.name).join(" v ")}`,
      names: [],
      sourceIds: r.source_id === null ? [] : [r.source_id],
      date: r.start_date,
      seasonId: r.season_id,
      competitors,
    };
  });
}

async function fixtureFacts(deps: { sql: Sql; store: EventStore }, fixtureId: string): Promise<FixtureFacts> {
  const { state } = await loadStream(deps.store, fixtureCatalogue, fixtureStream(fixtureId), {
    initialState: initialFixtureState,
    evolve: evolveFixture,
  });
  const innings = await deps.sql<
    { innings_id: string; ordinal: number; batting_competitor_id: string; bowling_competitor_id: string }[]
  >`
    select innings_id, ordinal, batting_competitor_id, bowling_competitor_id from innings where fixture_id = ${fixtureId}`;
  const members = await deps.sql<(Named & { competitor_id: string })[]>`
    select s.competitor_id, p.participant_id as id, p.name, p.alternative_names, p.source_ids
    from squad_member s join participant p on p.participant_id = s.participant_id
    where s.fixture_id = ${fixtureId}`;
  const squads = new Map<string, Candidate[]>();
  for (const m of members) squads.set(m.competitor_id, [...(squads.get(m.competitor_id) ?? []), candidate(m)]);
  return {
    state,
    innings: innings.map((i) => ({
      inningsId: i.innings_id,
      ordinal: i.ordinal,
      battingCompetitorId: i.batting_competitor_id,
      bowlingCompetitorId: i.bowling_competitor_id,
    })),
    squads,
  };
}
