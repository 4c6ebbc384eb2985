import { v5 as uuidv5 } from "uuid";
import type { FixtureScheduled, InningsOpened, OutcomeRecorded, SquadNamed } from "../../streams/fixture.js";
import type { EventData } from "../../streams/types.js";
import type { Problem } from "../commands/errors.js";
import type { PackageEvent, PackageFixture, PackageReference, ReadPackage } from "../ingest/batches/package.js";
import { cricsheetIds } from "../ingest/cricsheet/ids.js";
import { type Candidate, candidatesFor } from "./references.js";

/**
 * A canonical fixture from a 1.1 package's fixture that names none the competition has
 * (docs/batches.md, "Canonical fixtures"): its schedule from the fixture's context and
 * proposal, its season, teams and people found among those that already exist, its innings
 * as the package's innings say, its squads everyone its deliveries name. Pure: what exists
 * comes in. Every reference that finds nothing, or more than one, is a problem, all in one pass.
 */

/** What a canonical fixture is built from: what already exists that the package may name. */
export type CanonicalFacts = {
  /** The batch's competition's seasons. */
  seasons: Candidate[];
  /** Teams of the proposal's gender and team type. */
  teams: Candidate[];
  /** People who have played for each team (by its id): a name is looked for there first. */
  squadsOf: Map<string, Candidate[]>;
  /** People the package names by source id or by name, wherever they played. */
  people: Candidate[];
};

export type CanonicalFixture = {
  fixtureId: string;
  scheduled: EventData<typeof FixtureScheduled>;
  squads: EventData<typeof SquadNamed>[];
  innings: EventData<typeof InningsOpened>[];
  outcome: EventData<typeof OutcomeRecorded>;
};

const NAMESPACE = "2d6b0f47-8a3e-4c91-b5d2-7e1f9c0a4b36";
const T20_OVERS = 20;

/**
 * A fixture from a Cricsheet source takes the id the Cricsheet importer would give it, so a
 * later import of that match revises this fixture instead of adding a second; any other
 * source's fixture an id derived from the competition and the source id.
 */
function idsFor(competitionId: string, sourceId: string) {
  const [namespace, type, ...rest] = sourceId.split(":");
  const match = rest.join(":");
  if (namespace === "cricsheet" && type === "fixture")
    return {
      fixtureId: cricsheetIds.fixture(match),
      inningsId: (ordinal: number) => cricsheetIds.innings(match, ordinal),
    };
  const fixtureId = uuidv5(`fixture\u001f${competitionId}\u001f${sourceId}`, NAMESPACE);
  return { fixtureId, inningsId: (ordinal: number) => uuidv5(`innings\u001f${fixtureId}\u001f${ordinal}`, NAMESPACE) };
}

/** The package's fixture at `index` as a canonical fixture, or every problem in the way. */
export function canonicalFixture(
  read: ReadPackage,
  index: number,
  competitionId: string,
  facts: CanonicalFacts,
): { fixture: CanonicalFixture } | { problems: Problem[] } {
  const where = `fixtures.${index}`;
  const value = read.fixtures[index]?.value;
  const problems: Problem[] = [];
  const problem = (code: string, message: string, field: string) => {
    if (!problems.some((p) => p.code === code && p.message === message)) problems.push({ code, message, field });
  };
  if (read.contractVersion !== "1.1" || !value?.proposal || !value.sourceId) {
    problem(
      "PROPOSAL_REQUIRED",
      "A canonical fixture is made from a 1.1 package's fixture, with its source id and proposal",
      where,
    );
    return { problems };
  }
  const faults = read.faults.filter((f) => f.path === where || f.path.startsWith(`${where}.`));
  for (const f of faults) problem("FIXTURE_INVALID", `${f.code}: ${f.message}`, f.path);

  const only = (found: readonly Candidate[], what: string, reference: PackageReference, field: string) => {
    const [one] = found;
    if (one && found.length === 1) return one;
    const name = reference.sourceId ?? reference.context?.name ?? "";
    problem(
      found.length === 0 ? `${what}_UNRESOLVED` : `${what}_AMBIGUOUS`,
      found.length === 0
        ? `No ${what.toLowerCase()} is known as ${name}: it must exist before the fixture is made`
        : `${found.length} ${what.toLowerCase()}s are known as ${name}: ${found.map((c) => c.name).join(", ")}`,
      field,
    );
    return undefined;
  };

  const seasonReference = value.season ?? read.season;
  const seasonAt = value.season ? `${where}.season` : "season";
  if (!seasonReference) problem("SEASON_REQUIRED", "Name the fixture's season, or the package's", `${where}.season`);
  const season =
    seasonReference && only(candidatesFor(seasonReference, facts.seasons), "SEASON", seasonReference, seasonAt);
  const teams = value.context.teams.map((t, i) =>
    only(candidatesFor(t, facts.teams), "TEAM", t, `${where}.context.teams.${i}`),
  );
  const [home, away] = teams;
  if (!home || !away || !season || problems.length > 0) return { problems };
  if (home.id === away.id) {
    problem("DUPLICATE_TEAM", "The fixture's teams name one team twice", `${where}.context.teams.1`);
    return { problems };
  }
  const sides = [home, away];
  const named = value.proposal.outcome.winner;
  const winner = named && only(candidatesFor(named, sides), "WINNER", named, `${where}.proposal.outcome.winner`);

  const ids = idsFor(competitionId, value.sourceId);
  const squads = new Map(sides.map((t) => [t.id, new Set<string>()]));
  const innings: EventData<typeof InningsOpened>[] = [];
  for (const [j, inn] of (read.fixtures[index]?.innings ?? []).entries()) {
    const at = `${where}.innings.${j}`;
    if (!inn) continue;
    const batting = only(
      candidatesFor(inn.context.battingTeam, sides),
      "BATTING_TEAM",
      inn.context.battingTeam,
      `${at}.context.battingTeam`,
    );
    if (!batting) continue;
    if (innings.some((i) => i.ordinal === inn.context.ordinal)) {
      problem("INNINGS_REPEATED", `Innings ${inn.context.ordinal} is named twice`, `${at}.context.ordinal`);
      continue;
    }
    const bowling = sides.find((t) => t.id !== batting.id) as Candidate;
    innings.push(inningsOf(ids.inningsId(inn.context.ordinal), inn.context.ordinal, batting.id, bowling.id));
    const person = (reference: PackageReference, field: string, team: Candidate) => {
      const within =
        reference.sourceId === undefined ? candidatesFor(reference, facts.squadsOf.get(team.id) ?? []) : [];
      const found = within.length > 0 ? within : candidatesFor(reference, facts.people);
      const one = only(found, "PARTICIPANT", reference, field);
      if (one) squads.get(team.id)?.add(one.id);
    };
    for (const item of read.items)
      if (item.fixtureIndex === index && item.inningsIndex === j && item.event)
        peopleOf(item.event, item.path, (reference, field, side) =>
          person(reference, field, side === "batting" ? batting : bowling),
        );
  }
  if (problems.length > 0) return { problems };
  const schedule = { fixtureId: ids.fixtureId, competitionId, seasonId: season.id, winnerId: winner?.id ?? null };
  return { fixture: built(value, schedule, sides, squads, innings) };
}

/** Everyone a delivery names, on the side they play for; a substitute fielder is in no squad. */
function peopleOf(
  e: PackageEvent,
  path: string,
  visit: (reference: PackageReference, field: string, side: "batting" | "fielding") => void,
) {
  visit(e.striker, `${path}.striker`, "batting");
  visit(e.nonStriker, `${path}.nonStriker`, "batting");
  visit(e.bowler, `${path}.bowler`, "fielding");
  e.wickets.forEach((w, n) => {
    visit(w.playerOut, `${path}.wickets.${n}.playerOut`, "batting");
    w.fielders.forEach((f, m) => {
      if (!f.substitute) visit(f.participant, `${path}.wickets.${n}.fielders.${m}.participant`, "fielding");
    });
  });
}

const inningsOf = (
  inningsId: string,
  ordinal: number,
  battingCompetitorId: string,
  bowlingCompetitorId: string,
): EventData<typeof InningsOpened> => ({
  inningsId,
  ordinal,
  battingCompetitorId,
  bowlingCompetitorId,
  superOver: false,
  target: null,
  declared: false,
  forfeited: false,
  penaltyRuns: { pre: 0, post: 0 },
  absentHurtIds: [],
  miscountedOvers: [],
});

function built(
  value: PackageFixture,
  {
    fixtureId,
    competitionId,
    seasonId,
    winnerId,
  }: { fixtureId: string; competitionId: string; seasonId: string; winnerId: string | null },
  sides: Candidate[],
  squads: Map<string, Set<string>>,
  innings: EventData<typeof InningsOpened>[],
): CanonicalFixture {
  const proposal = value.proposal as NonNullable<PackageFixture["proposal"]>;
  return {
    fixtureId,
    scheduled: {
      fixtureId,
      competitionId,
      seasonId,
      // The proposal names no venue: the fixture has none until a source says.
      venueId: null,
      competitors: sides.map((t) => ({ competitorId: t.id, name: t.name })),
      startDate: value.context.date,
      endDate: proposal.endDate,
      matchType: proposal.matchType,
      teamType: proposal.teamType,
      gender: proposal.gender,
      ballsPerOver: proposal.ballsPerOver,
      oversPerInnings: T20_OVERS,
      stage: null,
      matchNumber: null,
      source: {
        sourceId: value.sourceId as string,
        revision: proposal.sourceRevision,
        dataVersion: proposal.sourceVersion,
        createdOn: value.context.date,
      },
    },
    squads: sides.map((t) => ({ competitorId: t.id, participantIds: [...(squads.get(t.id) ?? [])] })),
    innings: innings.toSorted((a, b) => a.ordinal - b.ordinal),
    outcome: {
      result: proposal.outcome.result,
      winnerId,
      by: null,
      method: null,
      tieBreakWinnerId: null,
      tieBreak: null,
      playerOfMatchIds: [],
    },
  };
}
