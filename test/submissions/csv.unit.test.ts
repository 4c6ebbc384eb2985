import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { CSV_COLUMNS, csvField, readCsvSubmission } from "../../src/submissions/csv.js";

const FIXTURE = "fx-2024-final";
const WICKET = {
  kind: "caught",
  playerOutId: "p-striker",
  fielders: [{ participantId: 'p-fielder, "Sub"', substitute: true }],
};

const firstBall = {
  eventId: "6f1c1d2e-8b3a-4c5d-9e0f-1a2b3c4d5e6f",
  inningsId: "inn-1",
  sequenceNumber: 1,
  overNumber: 0,
  positionInOver: 1,
  ballNumber: "0.1",
  strikerId: "p-striker",
  nonStrikerId: "p-non-striker",
  bowlerId: "p-bowler",
  runs: { offBat: 4, extras: 0, total: 4, nonBoundary: false },
  extras: {},
  wickets: [],
};

const secondBall = {
  eventId: "7a2d3e4f-9c4b-4d6e-8f10-2b3c4d5e6f70",
  inningsId: "inn-1",
  sequenceNumber: 2,
  overNumber: 0,
  positionInOver: 2,
  strikerId: "p-striker",
  nonStrikerId: "p-non-striker",
  bowlerId: "p-bowler",
  runs: { offBat: 0, extras: 1, total: 1 },
  extras: { wides: 1 },
  wickets: [WICKET],
};

/** One row of cells in the upload's column order, every cell as the uploader would type it. */
type Cells = Partial<Record<(typeof CSV_COLUMNS)[number], string>>;

const baseRow: Cells = {
  fixtureId: FIXTURE,
  schemaVersion: "1.0",
  eventId: firstBall.eventId,
  inningsId: "inn-1",
  sequenceNumber: "1",
  overNumber: "0",
  positionInOver: "1",
  ballNumber: "0.1",
  strikerId: "p-striker",
  nonStrikerId: "p-non-striker",
  bowlerId: "p-bowler",
  runsOffBat: "4",
  runsExtras: "0",
  runsTotal: "4",
  runsNonBoundary: "false",
};

const cells = (row: Cells) => CSV_COLUMNS.map((column) => row[column as keyof Cells] ?? "");

const csv = (rows: Cells[], options: Parameters<typeof stringify>[1] = {}) =>
  stringify([[...CSV_COLUMNS], ...rows.map(cells)], options);

/** The single event a one-row file with `changes` applied to the base row reads as. */
function readOne(changes: Cells) {
  const { body, details } = readCsvSubmission(csv([{ ...baseRow, ...changes }]));
  expect(details).toStrictEqual([]);
  return body?.events[0];
}

describe("readCsvSubmission", () => {
  it("reads a two-row file into the JSON submission it was written from", () => {
    const text = csv([
      baseRow,
      {
        ...baseRow,
        eventId: secondBall.eventId,
        sequenceNumber: "2",
        positionInOver: "2",
        ballNumber: "",
        runsOffBat: "0",
        runsExtras: "1",
        runsTotal: "1",
        runsNonBoundary: "",
        extraWides: "1",
        wickets: JSON.stringify([WICKET]),
      },
    ]);

    expect(readCsvSubmission(text)).toStrictEqual({
      body: { fixtureId: FIXTURE, schemaVersion: "1.0", events: [firstBall, secondBall] },
      details: [],
    });
  });

  it("unquotes commas, doubled quotes and line breaks inside quoted cells", () => {
    const text = csv([{ ...baseRow, strikerId: 'p,"1"', bowlerId: "line\nbreak", wickets: JSON.stringify([WICKET]) }]);
    expect(text).toContain('"[{""kind"":""caught""');

    const event = readCsvSubmission(text).body?.events[0];
    expect(event?.strikerId).toBe('p,"1"');
    expect(event?.bowlerId).toBe("line\nbreak");
    expect(event?.wickets).toStrictEqual([WICKET]);
  });

  it("reads CRLF line ends and strips a UTF-8 byte order mark", () => {
    const text = csv([baseRow, { ...baseRow, eventId: "e-2" }], { bom: true, record_delimiter: "windows" });
    expect(text.startsWith("\uFEFFfixtureId,")).toBe(true);
    expect(text).toContain("\r\n");

    const { body, details } = readCsvSubmission(text);
    expect(details).toStrictEqual([]);
    expect(body?.fixtureId).toBe(FIXTURE);
    expect(body?.events.map((e) => e.eventId)).toStrictEqual([firstBall.eventId, "e-2"]);
    expect(body?.events[1]?.wickets).toStrictEqual([]);
  });

  it("trims spaces around unquoted cells but keeps them inside quotes", () => {
    const header = CSV_COLUMNS.join(" , ");
    const row = cells({ ...baseRow, strikerId: '" padded "' }).join(" ,  ");
    const event = readCsvSubmission(`${header}\n${row}\n\n`).body?.events[0];
    expect(event?.strikerId).toBe(" padded ");
    expect(event?.sequenceNumber).toBe(1);
    expect(event?.inningsId).toBe("inn-1");
  });

  it("reads a blank wickets cell as no wickets", () => {
    expect(readOne({ wickets: "" })?.wickets).toStrictEqual([]);
  });

  it("leaves blank optional extras out and reads the others as integers", () => {
    expect(readOne({})?.extras).toStrictEqual({});
    expect(readOne({ extraNoBalls: "1", extraPenalty: "5" })?.extras).toStrictEqual({ noBalls: 1, penalty: 5 });
    expect(readOne({ extraByes: "2", extraLegByes: "3", extraWides: "4" })?.extras).toStrictEqual({
      wides: 4,
      byes: 2,
      legByes: 3,
    });
  });

  it("omits a required field whose cell is blank, for the validator to report missing", () => {
    const event = readOne({ eventId: "", sequenceNumber: "", bowlerId: "", runsOffBat: "" });
    expect(event).not.toHaveProperty("eventId");
    expect(event).not.toHaveProperty("sequenceNumber");
    expect(event).not.toHaveProperty("bowlerId");
    expect(event?.runs).toStrictEqual({ extras: 0, total: 4, nonBoundary: false });
    expect(event?.inningsId).toBe("inn-1");
  });

  it("reads plain integers as numbers and keeps anything else as text for the validator", () => {
    const event = readOne({
      sequenceNumber: "007",
      overNumber: "-1",
      positionInOver: "1.5",
      runsOffBat: "four",
      runsExtras: "+1",
      runsTotal: "1e2",
      extraWides: "0x1",
    });
    expect(event).toMatchObject({
      sequenceNumber: 7,
      overNumber: -1,
      positionInOver: "1.5",
      runs: { offBat: "four", extras: "+1", total: "1e2" },
      extras: { wides: "0x1" },
    });
  });

  it("reads runsNonBoundary true and false in any case, keeps other text and omits a blank", () => {
    expect(readOne({ runsNonBoundary: "TRUE" })?.runs).toHaveProperty("nonBoundary", true);
    expect(readOne({ runsNonBoundary: "False" })?.runs).toHaveProperty("nonBoundary", false);
    expect(readOne({ runsNonBoundary: "yes" })?.runs).toHaveProperty("nonBoundary", "yes");
    expect(readOne({ runsNonBoundary: "" })?.runs).not.toHaveProperty("nonBoundary");
  });

  it("reports a wickets cell that is not JSON against its row and reads it as no wickets", () => {
    const { body, details } = readCsvSubmission(
      csv([baseRow, { ...baseRow, wickets: "[{kind: bowled}]" }, { ...baseRow, wickets: '{"kind":"bowled"}' }]),
    );
    expect(details).toStrictEqual([
      {
        code: "INVALID_FIELD",
        field: "wickets",
        eventIndex: 1,
        message: 'The wickets cell must be a JSON array, e.g. [{"kind":"bowled","playerOutId":"…","fielders":[]}]',
      },
    ]);
    expect(body?.events[1]?.wickets).toStrictEqual([]);
    // JSON that is not an array is the validator's to report.
    expect(body?.events[2]?.wickets).toStrictEqual({ kind: "bowled" });
  });

  it("rejects a header with the columns out of order", () => {
    const swapped: string[] = [...CSV_COLUMNS];
    [swapped[2], swapped[3]] = [swapped[3] as string, swapped[2] as string];
    const text = `${swapped.join(",")}\n${cells(baseRow).join(",")}\n`;

    const { body, details } = readCsvSubmission(text);
    expect(body).toBeNull();
    expect(details).toStrictEqual([
      {
        code: "INVALID_FIELD",
        field: "header",
        message: `Expected the columns ${CSV_COLUMNS.join(", ")} in this order (column 3 should be eventId)`,
      },
    ]);
  });

  it("rejects a header with a column missing, a column extra or a column in the wrong case", () => {
    const headerDetail = (header: readonly string[]) => {
      const { body, details } = readCsvSubmission(`${header.join(",")}\n`);
      expect(body).toBeNull();
      expect(details).toHaveLength(1);
      expect(details[0]).toMatchObject({ code: "INVALID_FIELD", field: "header" });
      return details[0]?.message;
    };
    expect(headerDetail(CSV_COLUMNS.filter((c) => c !== "ballNumber"))).toMatch(/column 8 should be ballNumber\)$/);
    expect(headerDetail(CSV_COLUMNS.slice(0, -1))).toMatch(/column 21 should be wickets\)$/);
    expect(headerDetail([...CSV_COLUMNS, "notes"])).toMatch(/\(found 22 columns\)$/);
    expect(headerDetail(["FixtureId", ...CSV_COLUMNS.slice(1)])).toMatch(/column 1 should be fixtureId\)$/);
  });

  it("reports an empty file as missing its header", () => {
    for (const text of ["", "\r\n\n", "\uFEFF"]) {
      const { body, details } = readCsvSubmission(text);
      expect(body).toBeNull();
      expect(details).toStrictEqual([
        {
          code: "INVALID_FIELD",
          field: "header",
          message: `The file is empty; expected a header row with the columns ${CSV_COLUMNS.join(", ")} in this order`,
        },
      ]);
    }
  });

  it("reports a file with a header but no rows", () => {
    expect(readCsvSubmission(csv([], { record_delimiter: "windows" }))).toStrictEqual({
      body: { events: [] },
      details: [{ code: "INVALID_FIELD", field: "events", message: "The file has a header but no event rows" }],
    });
  });

  it("takes the fixture and schema version from the first row and reports rows that differ", () => {
    const { body, details } = readCsvSubmission(
      csv([
        baseRow,
        { ...baseRow, fixtureId: "fx-other" },
        baseRow,
        { ...baseRow, schemaVersion: "2.0" },
        { ...baseRow, fixtureId: "", schemaVersion: "" },
      ]),
    );
    expect(body).toMatchObject({ fixtureId: FIXTURE, schemaVersion: "1.0" });
    expect(body?.events).toHaveLength(5);
    const fixture = `Every row must name the same fixture as the first row (${FIXTURE})`;
    const version = "Every row must name the same schema version as the first row (1.0)";
    expect(details).toStrictEqual([
      { code: "INVALID_FIELD", field: "fixtureId", eventIndex: 1, message: fixture },
      { code: "INVALID_FIELD", field: "schemaVersion", eventIndex: 3, message: version },
      { code: "INVALID_FIELD", field: "fixtureId", eventIndex: 4, message: fixture },
      { code: "INVALID_FIELD", field: "schemaVersion", eventIndex: 4, message: version },
    ]);
  });

  it("cuts a long first fixture short when echoing it", () => {
    const long = "f".repeat(5000);
    const { details } = readCsvSubmission(csv([{ ...baseRow, fixtureId: long }, baseRow]));
    expect(details).toStrictEqual([
      {
        code: "INVALID_FIELD",
        field: "fixtureId",
        eventIndex: 1,
        message: `Every row must name the same fixture as the first row (${"f".repeat(200)}…)`,
      },
    ]);
  });

  it("omits a blank fixture and schema version of the first row from the body", () => {
    const { body } = readCsvSubmission(csv([{ ...baseRow, fixtureId: "", schemaVersion: "" }]));
    expect(body).not.toHaveProperty("fixtureId");
    expect(body).not.toHaveProperty("schemaVersion");
    expect(body?.events).toHaveLength(1);
  });

  it("reports a row with too few or too many cells and still reads the cells it has", () => {
    const full = cells({ ...baseRow, extraWides: "1", wickets: "" });
    const text = [CSV_COLUMNS.join(","), full.slice(0, 16).join(","), full.join(","), [...full, "x"].join(",")].join(
      "\n",
    );

    const { body, details } = readCsvSubmission(text);
    expect(details).toStrictEqual([
      { code: "INVALID_FIELD", field: "row", eventIndex: 0, message: "Row has 16 cells; expected 21" },
      { code: "INVALID_FIELD", field: "row", eventIndex: 2, message: "Row has 22 cells; expected 21" },
    ]);
    expect(body?.events[0]).toStrictEqual({ ...firstBall, extras: { wides: 1 } });
    expect(body?.events[2]).toStrictEqual(body?.events[1]);
  });

  it("reports a quote that is never closed as a file that is not CSV", () => {
    const text = `${csv([baseRow])}${cells({ ...baseRow, strikerId: '"unclosed' }).join(",")}\n`;
    const { body, details } = readCsvSubmission(text);
    expect(body).toBeNull();
    expect(details).toHaveLength(1);
    expect(details[0]).toMatchObject({ code: "INVALID_FIELD", field: "file" });
    expect(details[0]?.message).toMatch(/^The file is not valid CSV: .*\bline 3\b/);
    expect(details[0]).not.toHaveProperty("eventIndex");
  });

  it("reads a thousand rows", () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ ...baseRow, eventId: `e-${i}`, sequenceNumber: `${i}` }));
    const { body, details } = readCsvSubmission(csv(rows));
    expect(details).toStrictEqual([]);
    expect(body?.events).toHaveLength(1000);
    expect(body?.events[999]).toMatchObject({ eventId: "e-999", sequenceNumber: 999 });
  });
});

describe("csvField", () => {
  it("names the column of each runs and extras field", () => {
    expect(
      [
        "runs.offBat",
        "runs.extras",
        "runs.total",
        "runs.nonBoundary",
        "extras.wides",
        "extras.noBalls",
        "extras.byes",
        "extras.legByes",
        "extras.penalty",
      ].map(csvField),
    ).toStrictEqual([
      "runsOffBat",
      "runsExtras",
      "runsTotal",
      "runsNonBoundary",
      "extraWides",
      "extraNoBalls",
      "extraByes",
      "extraLegByes",
      "extraPenalty",
    ]);
  });

  it("returns paths without a column of their own unchanged", () => {
    for (const path of ["strikerId", "wickets.0.kind", "runs", "extras", "constructor", ""]) {
      expect(csvField(path)).toBe(path);
    }
  });
});
