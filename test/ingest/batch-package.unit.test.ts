import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readPackage } from "../../src/ingest/batches/package.js";

/** Reading a package level by level: every fault in one pass, each located by its JSON path. */

const team = (name: string) => ({ context: { name } });
const anEvent = (sequence: number, more: Record<string, unknown> = {}) => ({
  eventId: randomUUID(),
  occurrenceSequence: sequence,
  overNumber: 0,
  positionInOver: sequence - 1,
  striker: team("A"),
  nonStriker: team("B"),
  bowler: team("C"),
  runs: { offBat: 1, extras: 0, total: 1 },
  ...more,
});
const aPackage = (events: unknown[], fixture: Record<string, unknown> = {}, version = "1.0") => ({
  contractVersion: version,
  packageId: "p",
  competition: team("League"),
  fixtures: [
    {
      context: { date: "2024-04-01", teams: [team("X"), team("Y")] },
      innings: [{ context: { ordinal: 0, battingTeam: team("X") }, events }],
      ...fixture,
    },
  ],
});

describe("reading a package", () => {
  it("reads each event on its own: a malformed one is its item's fault, the others stand", () => {
    const read = readPackage(
      aPackage([
        anEvent(1),
        anEvent(2, { runs: { offBat: 1, extras: 0, total: "2" } }),
        anEvent(3, { ballLabel: "4.1" }),
      ]),
    );
    expect(read.faults).toEqual([]);
    expect(read.items.map((i) => [i.ordinal, i.event !== undefined, i.faults.map((f) => f.path)])).toEqual([
      [0, true, []],
      [1, false, ["fixtures.0.innings.0.events.1.runs.total"]],
      [2, false, ["fixtures.0.innings.0.events.2.ballLabel"]],
    ]);
  });

  it("marks a repeated event id and a repeated occurrence sequence on the repeat, not the first", () => {
    const first = anEvent(1);
    const read = readPackage(aPackage([first, { ...anEvent(2), eventId: first.eventId }, anEvent(1)]));
    expect(read.items.map((i) => i.faults.map((f) => f.code))).toEqual([
      [],
      ["DUPLICATE_EVENT_ID"],
      ["DUPLICATE_OCCURRENCE_SEQUENCE"],
    ]);
  });

  it("asks a 1.1 fixture for its source id and a whole, consistent proposal", () => {
    const proposal = {
      endDate: "2024-03-31",
      matchType: "T20",
      teamType: "club",
      gender: "male",
      ballsPerOver: 6,
      outcome: { result: "won" },
      sourceVersion: "1.1.0",
      sourceRevision: 1,
    };
    expect(readPackage(aPackage([anEvent(1)], {}, "1.1")).faults.map((f) => [f.code, f.path])).toEqual([
      ["FIXTURE_SOURCE_ID_REQUIRED", "fixtures.0.sourceId"],
      ["PROPOSAL_REQUIRED", "fixtures.0.proposal"],
    ]);
    const read = readPackage(aPackage([anEvent(1)], { sourceId: "cricsheet:fixture:1", proposal }, "1.1"));
    expect(read.faults.map((f) => [f.code, f.path])).toEqual([
      ["PROPOSAL_INVALID", "fixtures.0.proposal.endDate"],
      ["PROPOSAL_INVALID", "fixtures.0.proposal.outcome.winner"],
    ]);
    const odi = readPackage(
      aPackage([anEvent(1)], { sourceId: "cricsheet:fixture:1", proposal: { ...proposal, matchType: "ODI" } }, "1.1"),
    );
    expect(odi.faults.map((f) => f.path)).toContain("fixtures.0.proposal.matchType");
  });

  it("locates a malformed fixture's faults at the fixture, and still reads its events", () => {
    const read = readPackage(aPackage([anEvent(1)], { context: { date: "2024-02-30", teams: [team("X")] } }));
    expect(read.faults.map((f) => f.path)).toEqual(["fixtures.0.context.date", "fixtures.0.context.teams"]);
    expect(read.fixtures[0]?.value).toBeUndefined();
    expect(read.items).toHaveLength(1);
  });
});
