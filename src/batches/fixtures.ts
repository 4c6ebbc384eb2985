import type { Fault, PackageFixture, PackageReference, ReadFixture, ReadPackage } from "../ingest/batches/package.js";
import type { BatchFacts, FixtureCandidate } from "./judge.js";
import { type Requirement, requirement } from "./judged.js";
import { type Candidate, candidatesFor, nameKey } from "./references.js";
import { judgeSeason, type SeasonVerdict, seasonMismatch } from "./seasons.js";

/**
 * The fixtures of a package, judged before their deliveries: which fixture of the
 * competition each names, in which season, and whether its teams and its innings' batting
 * teams agree with that fixture (docs/batches.md, "Seasons" and "Teams").
 */

/** Where a fixture of the package leads, and what stands in the way of its deliveries. */
export type FixturePlace = {
  fixture: ReadFixture;
  /** The fixture of the competition it names, when it names exactly one. */
  id: string | undefined;
  /** Its references (the fixture's, its effective season's) that name no candidate, or several. */
  requirements: Requirement[];
  /** Faults that reject every delivery of the fixture, wherever they lie: its season may be the package's. */
  faults: Fault[];
  /** Faults that reject the deliveries of one innings, by the innings' index in the package. */
  inningsFaults: Fault[][];
};

/** Which fixture of the competition each fixture of the package names: exactly one, or a requirement. */
export function resolveFixtures(read: ReadPackage, fixtures: readonly FixtureCandidate[]) {
  return read.fixtures.map((f) => {
    if (!f.value) return { fixture: f, id: undefined, requirement: undefined };
    const path = `fixtures.${f.index}`;
    const chosen = read.mappings.get(path);
    const found = chosen === undefined ? fixtureCandidates(f.value, fixtures) : fixtures.filter((c) => c.id === chosen);
    const [only] = found;
    return only && found.length === 1
      ? { fixture: f, id: only.id, requirement: undefined }
      : {
          fixture: f,
          id: undefined,
          requirement: requirement(path, fixtureReference(f.value), found, "fixture"),
        };
  });
}

/** By source id; else by date and both teams, each naming a different one of the fixture's two competitors. */
function fixtureCandidates(value: PackageFixture, fixtures: readonly FixtureCandidate[]): FixtureCandidate[] {
  if (value.sourceId !== undefined) return candidatesFor({ sourceId: value.sourceId }, fixtures) as FixtureCandidate[];
  return fixtures.filter((c) => {
    if (c.date !== value.context.date) return false;
    const ids = value.context.teams.map((team) => onlyId(candidatesFor(team, c.competitors)));
    return ids.every((id) => id !== undefined) && new Set(ids).size === c.competitors.length;
  });
}

const onlyId = (found: readonly Candidate[]) => (found.length === 1 ? found[0]?.id : undefined);

/** "2024-04-01 Mumbai Indians v Chennai Super Kings": a fixture as people name it. */
export const fixtureLabel = (f: PackageFixture) =>
  `${f.context.date} ${f.context.teams.map((t) => t.context.name).join(" v ")}`;

const fixtureReference = (f: PackageFixture): PackageReference => ({
  ...(f.sourceId === undefined ? {} : { sourceId: f.sourceId }),
  context: { name: fixtureLabel(f) },
});

/**
 * Every fixture of the package placed, and the faults found on the way (each once: a fault of
 * the package's season concerns every fixture it is the season of).
 */
export function judgeFixtures(read: ReadPackage, facts: BatchFacts): { places: FixturePlace[]; faults: Fault[] } {
  const packageSeason = judgeSeason(read.season, "season", facts.seasons, read.mappings);
  const places = resolveFixtures(read, facts.fixtures).map(({ fixture, id, requirement }) => {
    const place: FixturePlace = {
      fixture,
      id,
      requirements: requirement ? [requirement] : [],
      faults: [],
      inningsFaults: [],
    };
    return fixture.value ? checked(place, fixture.value, packageSeason, facts, read.mappings) : place;
  });
  const faults = [...new Set(places.flatMap((p) => [...p.faults, ...p.inningsFaults.flat()]))];
  return { places, faults };
}

/** The place with what its season, its teams and its innings' batting teams say against it. */
function checked(
  place: FixturePlace,
  value: PackageFixture,
  packageSeason: SeasonVerdict | undefined,
  facts: BatchFacts,
  mappings: ReadPackage["mappings"],
): FixturePlace {
  const where = `fixtures.${place.fixture.index}`;
  const season =
    value.season === undefined ? packageSeason : judgeSeason(value.season, `${where}.season`, facts.seasons, mappings);
  const found = place.id === undefined ? undefined : facts.fixtures.find((c) => c.id === place.id);
  return {
    ...place,
    requirements: [...place.requirements, ...(season?.requirement ? [season.requirement] : [])],
    faults: [
      ...(season?.fault ? [season.fault] : []),
      ...seasonMismatch(season, found, facts.seasons),
      ...teamTwice(value, where, found),
    ],
    inningsFaults: place.fixture.innings.map((innings, j) =>
      innings && found ? battingTeamFaults(innings.context, `${where}.innings.${j}`, found, facts) : [],
    ),
  };
}

/**
 * A fixture is played by two teams: two references with one name (or one source id), or
 * naming one competitor of the fixture found, are a fault of the second.
 */
function teamTwice(value: PackageFixture, where: string, found: FixtureCandidate | undefined): Fault[] {
  const [first, second] = value.context.teams;
  if (!first || !second) return [];
  const key = (t: PackageReference) => t.sourceId ?? `name:${nameKey(t.context?.name ?? "")}`;
  const competitor = (t: PackageReference) => (found ? onlyId(candidatesFor(t, found.competitors)) : undefined);
  const one =
    key(first) === key(second) || (competitor(first) !== undefined && competitor(first) === competitor(second));
  return one
    ? [{ code: "DUPLICATE_TEAM", message: "The fixture's teams name one team twice", path: `${where}.context.teams.1` }]
    : [];
}

/** An innings' `battingTeam` names the competitor that bats in the innings of that ordinal of the fixture found. */
function battingTeamFaults(
  context: { ordinal: number; battingTeam: PackageReference },
  where: string,
  found: FixtureCandidate,
  facts: BatchFacts,
): Fault[] {
  const innings = facts.byFixture.get(found.id)?.innings.find((i) => i.ordinal === context.ordinal);
  // An ordinal the fixture does not have is its deliveries' INVALID_INNINGS.
  if (!innings) return [];
  const named = candidatesFor(context.battingTeam, found.competitors);
  if (onlyId(named) === innings.battingCompetitorId) return [];
  const batting = found.competitors.find((c) => c.id === innings.battingCompetitorId)?.name ?? "another team";
  const [wrong] = named;
  return [
    {
      code: "BATTING_TEAM_MISMATCH",
      message: `${batting} bats in innings ${context.ordinal} of ${found.name}${named.length === 1 && wrong ? `, not ${wrong.name}` : ""}`,
      path: `${where}.context.battingTeam`,
    },
  ];
}
