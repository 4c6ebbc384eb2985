import { describe, expect, it } from "vitest";
import { judgeBatch } from "../../src/batches/judge.js";
import { type PackageReference, readPackage } from "../../src/ingest/batches/package.js";
import { batchFactsOf } from "../support/batch-facts.js";
import { aPackageOf } from "../support/batches.js";
import { aFixture, aSeason, type FixtureBuilder, type SeasonBuilder } from "../support/cricket-builders.js";
import { validEvents } from "../support/submissions.js";

/**
 * A package's fixtures judged alone (hand-built facts, no database): the effective season
 * (the fixture's own, else the package's) found among the competition's seasons and agreeing
 * with the fixture found; two distinct teams; each innings' batting team the fixture's.
 */

type Body = ReturnType<typeof aPackageOf>;
type PackagedFixture = Record<string, unknown> & {
  context: { date: string; teams: PackageReference[] };
  innings: { context: { ordinal: number; battingTeam: PackageReference }; events: unknown[] }[];
};

const fixtureOf = (body: Body) => (body.fixtures as unknown as PackagedFixture[])[0] as PackagedFixture;
const named = (name: string) => ({ context: { name } });

/** A fixture of season 2024 with two innings played; the competition also has season 2023. */
function aSeasonedFixture(): { fixture: FixtureBuilder; earlier: SeasonBuilder } {
  const season = aSeason(undefined, { label: "2024" });
  const fixture = aFixture({ season }).withInnings({ deliveries: 0 }).withInnings({ deliveries: 0 });
  return { fixture, earlier: aSeason(season.competition, { label: "2023" }) };
}

/** A package of two new deliveries in each innings of `fixture`. */
function aPackageOfBoth(fixture: FixtureBuilder): Body {
  const body = aPackageOf(fixture, validEvents(fixture, 2));
  const [second] = aPackageOf(fixture, validEvents(fixture, 2, { ordinal: 1 }), { ordinal: 1 })
    .fixtures as unknown as PackagedFixture[];
  fixtureOf(body).innings.push(...(second?.innings ?? []));
  return body;
}

/** The judgement of a package, its head's season given as the reader gives it. */
function judged(body: Body & { season?: PackageReference }, fixture: FixtureBuilder, seasons: SeasonBuilder[] = []) {
  const read = { ...readPackage(body), season: body.season };
  const { items, faults } = judgeBatch(read, batchFactsOf(fixture.competition.id, [fixture], { seasons }));
  return {
    faults: faults.map((f) => [f.code, f.path]),
    items: items.map((i) => [
      i.outcome,
      ...i.faults.map((f) => f.code),
      ...i.requirements.map((r) => `${r.code} ${r.referencePath}`),
    ]),
  };
}

const accepted = Array(4).fill(["accepted"]);
const fixtureInvalid = (n: number) => Array(n).fill(["rejected", "FIXTURE_INVALID"]);

describe("a package's seasons", () => {
  it("are found by name among the competition's: the package's, and a fixture's own that overrides it", () => {
    const { fixture, earlier } = aSeasonedFixture();
    expect(judged({ ...aPackageOfBoth(fixture), season: named("2024") }, fixture, [earlier])).toEqual({
      faults: [],
      items: accepted,
    });
    const own = { ...aPackageOfBoth(fixture), season: named("2023") };
    fixtureOf(own).season = named("2024");
    expect(judged(own, fixture, [earlier])).toEqual({ faults: [], items: accepted });
  });

  it("reject the fixture's deliveries when the fixture found is of another season, at the season's path", () => {
    const { fixture, earlier } = aSeasonedFixture();
    expect(judged({ ...aPackageOfBoth(fixture), season: named("2023") }, fixture, [earlier])).toEqual({
      faults: [["FIXTURE_SEASON_MISMATCH", "season"]],
      items: fixtureInvalid(4),
    });
    const own = aPackageOfBoth(fixture);
    fixtureOf(own).season = named("2023");
    expect(judged(own, fixture, [earlier]).faults).toEqual([["FIXTURE_SEASON_MISMATCH", "fixtures.0.season"]]);
  });

  it("are refused by source id alone", () => {
    const { fixture } = aSeasonedFixture();
    const body = { ...aPackageOfBoth(fixture), season: { sourceId: `app:season:${fixture.season.id}` } };
    expect(judged(body, fixture)).toEqual({
      faults: [["SOURCE_ONLY_REFERENCE", "season.context"]],
      items: fixtureInvalid(4),
    });
  });

  it("that name none of the competition's, or several, are requirements with their candidates", () => {
    const { fixture, earlier } = aSeasonedFixture();
    const unknown = aPackageOfBoth(fixture);
    fixtureOf(unknown).season = named("1999");
    expect(judged(unknown, fixture).items).toEqual(
      Array(4).fill(["unresolved", "UNRESOLVED_REFERENCE fixtures.0.season"]),
    );
    // Another season the competition knows by the same name: which one is meant is the sender's to say.
    const twin = aSeason(fixture.competition, { label: "2024" });
    const read = { ...readPackage(aPackageOfBoth(fixture)), season: named("2024") };
    const { items } = judgeBatch(read, batchFactsOf(fixture.competition.id, [fixture], { seasons: [earlier, twin] }));
    expect(items[0]?.requirements).toEqual([
      expect.objectContaining({
        code: "AMBIGUOUS_REFERENCE",
        referencePath: "season",
        candidates: [fixture.season.id, twin.id].map((id) => expect.objectContaining({ sourceId: `app:season:${id}` })),
      }),
    ]);
  });
});

describe("a package's teams", () => {
  it("name the competitor batting in each innings: another rejects that innings' deliveries only", () => {
    const { fixture } = aSeasonedFixture();
    const body = aPackageOfBoth(fixture);
    const [first, second] = fixtureOf(body).innings;
    if (first && second) second.context.battingTeam = first.context.battingTeam;
    expect(judged(body, fixture)).toEqual({
      faults: [["BATTING_TEAM_MISMATCH", "fixtures.0.innings.1.context.battingTeam"]],
      items: [["accepted"], ["accepted"], ...fixtureInvalid(2)],
    });
  });

  it("are two: one team twice is a fault, and matches no fixture by date and teams", () => {
    const { fixture } = aSeasonedFixture();
    const twice = aPackageOfBoth(fixture);
    const packaged = fixtureOf(twice);
    packaged.context.teams = [named(fixture.home.name), named(fixture.home.name.toUpperCase())];
    expect(judged(twice, fixture)).toEqual({
      faults: [["DUPLICATE_TEAM", "fixtures.0.context.teams.1"]],
      items: fixtureInvalid(4),
    });
    const { sourceId: _, proposal: __, ...byDate } = packaged;
    const read = readPackage({ ...twice, contractVersion: "1.0", fixtures: [byDate] });
    const { items } = judgeBatch(read, batchFactsOf(fixture.competition.id, [fixture]));
    expect(items[0]?.requirements.map((r) => r.code)).toEqual(["UNRESOLVED_REFERENCE"]);
  });
});
