import { describe, expect, it } from "vitest";
import { type CanonicalFacts, canonicalFixture } from "../../src/batches/canonical-fixture.js";
import type { Candidate } from "../../src/batches/references.js";
import { readPackage } from "../../src/ingest/batches/package.js";

/**
 * A canonical fixture from a package's fixture (src/batches/canonical-fixture.ts), pure:
 * what it is made of when everything exists, and every reason it cannot be made, at its path.
 */

const person = (id: string, name: string): Candidate => ({ id, name, names: [], sourceIds: [] });
const home = person("team-h", "Home XI");
const away = person("team-a", "Away XI");
const [batterA, batterB, bowler] = [person("p-1", "A Batter"), person("p-2", "B Batter"), person("p-3", "C Bowler")];
const facts = (more: Partial<CanonicalFacts> = {}): CanonicalFacts => ({
  seasons: [person("season-1", "2031")],
  teams: [home, away],
  squadsOf: new Map([
    [home.id, [batterA, batterB]],
    [away.id, [bowler]],
  ]),
  people: [batterA, batterB, bowler],
  ...more,
});
const named = (name: string) => ({ context: { name } });
const delivery = (n: number, bowlerName = "C Bowler") => ({
  eventId: `00000000-0000-4000-8000-00000000000${n}`,
  occurrenceSequence: n,
  overNumber: 0,
  positionInOver: n - 1,
  striker: named("A Batter"),
  nonStriker: named("B Batter"),
  bowler: named(bowlerName),
  runs: { offBat: 1, extras: 0, total: 1 },
  extras: {},
  wickets: [],
});
const aPackage = (innings: unknown[], teams = [named("Home XI"), named("Away XI")]) =>
  readPackage({
    contractVersion: "1.1",
    packageId: "canonical",
    competition: named("League"),
    season: named("2031"),
    fixtures: [
      {
        sourceId: "cricsheet:fixture:9001",
        context: { date: "2031-05-17", teams },
        proposal: {
          endDate: "2031-05-17",
          matchType: "T20",
          teamType: "club",
          gender: "male",
          ballsPerOver: 6,
          outcome: { result: "won", winner: named("Away XI") },
          sourceVersion: "1.1.0",
          sourceRevision: 1,
        },
        innings,
      },
    ],
  });
const anInnings = (ordinal: number, events = [delivery(1)]) => ({
  context: { ordinal, battingTeam: named("Home XI") },
  events,
});
const problemsOf = (result: ReturnType<typeof canonicalFixture>) =>
  "problems" in result ? result.problems.map((p) => [p.code, p.field]) : [];

describe("a canonical fixture from a package's fixture", () => {
  it("is its schedule, the squads its deliveries name, its innings and its outcome", () => {
    const made = canonicalFixture(aPackage([anInnings(0)]), 0, "league", facts());
    if (!("fixture" in made)) throw new Error(JSON.stringify(made));
    expect(made.fixture.scheduled).toMatchObject({ seasonId: "season-1", startDate: "2031-05-17", venueId: null });
    expect(made.fixture.squads).toEqual([
      { competitorId: home.id, participantIds: [batterA.id, batterB.id] },
      { competitorId: away.id, participantIds: [bowler.id] },
    ]);
    expect(made.fixture.innings.map((i) => [i.ordinal, i.battingCompetitorId])).toEqual([[0, home.id]]);
    expect(made.fixture.outcome).toMatchObject({ result: "won", winnerId: away.id });
  });

  it("names every team, innings and person it cannot make it with, each at its path", () => {
    const twin = person("p-9", "C Bowler");
    const ambiguous = facts({
      squadsOf: new Map([[away.id, [bowler, twin]]]),
      people: [batterA, batterB, bowler, twin],
    });
    expect(problemsOf(canonicalFixture(aPackage([anInnings(0), anInnings(0)]), 0, "league", ambiguous))).toEqual([
      ["PARTICIPANT_AMBIGUOUS", "fixtures.0.innings.0.events.0.bowler"],
      ["INNINGS_REPEATED", "fixtures.0.innings.1.context.ordinal"],
    ]);
    const twoHomes = facts({ teams: [home, away, person("team-h2", "Home XI")] });
    expect(problemsOf(canonicalFixture(aPackage([anInnings(0)]), 0, "league", twoHomes))).toEqual([
      ["TEAM_AMBIGUOUS", "fixtures.0.context.teams.0"],
    ]);
    const sameTeam = aPackage([anInnings(0)], [named("Home XI"), named("Home XI")]);
    expect(problemsOf(canonicalFixture(sameTeam, 0, "league", facts()))).toEqual([
      ["DUPLICATE_TEAM", "fixtures.0.context.teams.1"],
    ]);
    expect(
      problemsOf(canonicalFixture(aPackage([anInnings(0, [delivery(1, "Nobody")])]), 0, "league", facts())),
    ).toEqual([["PARTICIPANT_UNRESOLVED", "fixtures.0.innings.0.events.0.bowler"]]);
  });
});
