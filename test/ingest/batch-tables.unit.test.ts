import { describe, expect, it } from "vitest";
import { readTables, type Table } from "../../src/ingest/batches/table.js";

/** Tables read into the package's shape: grouping, context that must agree, and where each path lies. */

const HEADER = [
  "contractVersion",
  "packageId",
  "competition",
  "fixtureDate",
  "team1",
  "team2",
  "inningsOrdinal",
  "battingTeam",
  "eventId",
  "occurrenceSequence",
];
const row = (ordinal: string, id: string, sequence: string, battingTeam = ordinal === "0" ? "A" : "B") => [
  "1.0",
  "p",
  "League",
  "2024-04-01",
  "A",
  "B",
  ordinal,
  battingTeam,
  id,
  sequence,
];
const table = (rows: string[][], sheet?: string): Table => ({
  ...(sheet ? { sheet } : {}),
  headerRow: 1,
  header: HEADER,
  rows: rows.map((cells, i) => ({ row: i + 2, cells })),
});

describe("readTables", () => {
  it("groups rows into fixtures and innings by their context, whatever their order and sheet", () => {
    const reading = readTables([
      table([row("1", "e3", "1"), row("0", "e1", "1")], "One"),
      table([row("0", "e2", "2")], "Two"),
    ]);
    expect(reading.head).toEqual({
      contractVersion: "1.0",
      packageId: "p",
      competition: { context: { name: "League" } },
    });
    expect(reading.fixtures).toEqual([
      {
        context: { date: "2024-04-01", teams: [{ context: { name: "A" } }, { context: { name: "B" } }] },
        innings: [
          {
            context: { ordinal: 1, battingTeam: { context: { name: "B" } } },
            events: [{ eventId: "e3", occurrenceSequence: 1 }],
          },
          {
            context: { ordinal: 0, battingTeam: { context: { name: "A" } } },
            events: [
              { eventId: "e1", occurrenceSequence: 1 },
              { eventId: "e2", occurrenceSequence: 2 },
            ],
          },
        ],
      },
    ]);
    expect(reading.locate("fixtures.0.innings.1.events.1.eventId")).toEqual({
      sheet: "Two",
      row: 2,
      column: "eventId",
    });
    expect(reading.locate("fixtures.0.innings.0.context.battingTeam")).toEqual({
      sheet: "One",
      row: 2,
      column: "battingTeam",
    });
    expect(reading.locate("fixtures.0.context.teams.1")).toEqual({ sheet: "One", row: 2, column: "team2" });
    expect(reading.locate("packageId")).toEqual({ sheet: "One", row: 2, column: "packageId" });
    expect(reading.faults).toEqual([]);
    expect(reading.rowFaults.size).toBe(0);
  });

  it("faults a row whose context differs from its group's first row, on the row's own item", () => {
    const reading = readTables([
      table([row("0", "e1", "1"), row("0", "e2", "2", "B"), row("0", "e3", "3").with(1, "q")]),
    ]);
    expect(Object.fromEntries(reading.rowFaults)).toEqual({
      "fixtures.0.innings.0.events.1": [
        expect.objectContaining({
          code: "CSV_CONTEXT_MISMATCH",
          column: "battingTeam",
          path: "fixtures.0.innings.0.events.1",
        }),
      ],
      "fixtures.0.innings.0.events.2": [expect.objectContaining({ code: "CSV_CONTEXT_MISMATCH", column: "packageId" })],
    });
  });

  it("checks a manifest's table against the manifest's head", () => {
    const reading = readTables([table([row("0", "e1", "1")])], {
      contractVersion: "1.0",
      packageId: "other",
      competition: { context: { name: "League" } },
    });
    expect(reading.rowFaults.get("fixtures.0.innings.0.events.0")).toEqual([
      expect.objectContaining({ code: "CSV_CONTEXT_MISMATCH", column: "packageId" }),
    ]);
  });

  it("reads integers and flags as such, and leaves anything else as written for the package's rules", () => {
    const header = [...HEADER, "runsOffBat", "runsNonBoundary", "overNumber"];
    const reading = readTables([
      { headerRow: 1, header, rows: [{ row: 2, cells: [...row("0", "e1", "1"), "4", "TRUE", "six"] }] },
    ]);
    const [fixture] = reading.fixtures as { innings: { events: unknown[] }[] }[];
    expect(fixture?.innings[0]?.events[0]).toMatchObject({ runs: { offBat: 4, nonBoundary: true }, overNumber: "six" });
  });
});
