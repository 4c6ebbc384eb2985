import type { Fault, PackageReference } from "../ingest/batches/package.js";
import type { FixtureCandidate } from "./judge.js";
import { type Requirement, requirement } from "./judged.js";
import { type Candidate, candidatesAt } from "./references.js";

/**
 * Seasons in a package (docs/batches.md, "Seasons"). A fixture's effective season is its own
 * `season` when it names one, else the package's. A season is named (a source-only reference
 * is refused, as for the competition and teams) and found among the competition's seasons by
 * `app:season:<id>` or by its name ("2008") or its source label ("2007/08").
 */

/** A season reference as judged: the season it names, or why it names none. */
export type SeasonVerdict = {
  /** Where the reference is: `season`, or `fixtures.N.season`. */
  path: string;
  id?: string;
  fault?: Fault;
  requirement?: Requirement;
};

export function judgeSeason(
  reference: PackageReference | undefined,
  path: string,
  seasons: readonly Candidate[],
  mappings: ReadonlyMap<string, string>,
): SeasonVerdict | undefined {
  if (reference === undefined) return undefined;
  if (reference.context?.name === undefined)
    return {
      path,
      fault: {
        code: "SOURCE_ONLY_REFERENCE",
        message: "Name the season in context.name: a source-only season reference is refused",
        path: `${path}.context`,
      },
    };
  const found = candidatesAt(mappings, path, reference, seasons);
  const [only] = found;
  return only && found.length === 1
    ? { path, id: only.id }
    : { path, requirement: requirement(path, reference, found, "season") };
}

/** The fault of a fixture found in another season than its effective one, at the season's reference. */
export function seasonMismatch(
  season: SeasonVerdict | undefined,
  fixture: FixtureCandidate | undefined,
  seasons: readonly Candidate[],
): Fault[] {
  if (season?.id === undefined || fixture === undefined || fixture.seasonId === season.id) return [];
  const name = (id: string) => seasons.find((s) => s.id === id)?.name ?? id;
  return [
    {
      code: "FIXTURE_SEASON_MISMATCH",
      message: `${fixture.name} is a fixture of season ${name(fixture.seasonId)}, not ${name(season.id)}`,
      path: season.path,
    },
  ];
}
