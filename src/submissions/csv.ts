import { parse } from "csv-parse/sync";
import { parseJson } from "../bounded-json.js";
import type { Problem } from "../commands/errors.js";
import { MAX_EVENTS } from "./schema.js";

/** The CSV upload's columns, in the order its header must name them (the events export writes the same). */
export const CSV_COLUMNS = [
  "fixtureId",
  "schemaVersion",
  "eventId",
  "inningsId",
  "sequenceNumber",
  "overNumber",
  "positionInOver",
  "ballNumber",
  "strikerId",
  "nonStrikerId",
  "bowlerId",
  "runsOffBat",
  "runsExtras",
  "runsTotal",
  "runsNonBoundary",
  "extraWides",
  "extraNoBalls",
  "extraByes",
  "extraLegByes",
  "extraPenalty",
  "wickets",
] as const;

type Column = (typeof CSV_COLUMNS)[number];
type Row = Record<Column, string>;

export type CsvReading = {
  body: { fixtureId?: unknown; schemaVersion?: unknown; events: Record<string, unknown>[] } | null;
  details: Problem[];
};

const PARSE_OPTIONS = {
  // Trimming would drop a leading BOM too, but only this option is meant to.
  bom: true,
  // Wrong row widths are reported per row below rather than failing the whole file.
  relax_column_count: true,
  skip_empty_lines: true,
  // Spreadsheets and hand edits leave spaces around delimiters, and no id or number means
  // anything by them; csv-parse trims only outside quotes, so a quoted value stays as written.
  trim: true,
};

const EXPECTED_COLUMNS = `the columns ${CSV_COLUMNS.join(", ")} in this order`;
const WICKETS_EXAMPLE = '[{"kind":"bowled","playerOutId":"…","fielders":[]}]';
const INTEGER = /^-?\d+$/;
// Echoed uploader text and parser messages are cut so a hostile cell cannot bloat the response.
const MAX_ECHO = 200;

const FIELD_COLUMNS = new Map([
  ["runs.offBat", "runsOffBat"],
  ["runs.extras", "runsExtras"],
  ["runs.total", "runsTotal"],
  ["runs.nonBoundary", "runsNonBoundary"],
  ["extras.wides", "extraWides"],
  ["extras.noBalls", "extraNoBalls"],
  ["extras.byes", "extraByes"],
  ["extras.legByes", "extraLegByes"],
  ["extras.penalty", "extraPenalty"],
]);

/**
 * The CSV column a JSON field path of an event names, so problems are reported against what
 * the uploader sees. Paths without a column of their own (e.g. `wickets.0.kind`) come back unchanged.
 */
export function csvField(path: string): string {
  return FIELD_COLUMNS.get(path) ?? path;
}

/**
 * Reads the text of an uploaded CSV submission into the shape of a JSON submission, leaving
 * the values' types and ranges to the submission validator. `body` is null when the file is
 * not CSV or its header is wrong, as then no row can be read, and when it holds more rows
 * than one submission may.
 */
export function readCsvSubmission(text: string): CsvReading {
  let records: string[][];
  try {
    records = parse(text, PARSE_OPTIONS);
  } catch (error) {
    // csv-parse's messages name the problem and the line it is on.
    const reason = error instanceof Error ? error.message : String(error);
    return { body: null, details: [invalid("file", `The file is not valid CSV: ${clip(reason)}`)] };
  }

  const [header, ...dataRows] = records;
  const headerProblem = checkHeader(header);
  if (headerProblem) return { body: null, details: [invalid("header", headerProblem)] };

  const [firstCells] = dataRows;
  if (firstCells === undefined) {
    return { body: { events: [] }, details: [invalid("events", "The file has a header but no event rows")] };
  }

  // Rows past the limit are not judged one by one: a megabyte of short rows would otherwise
  // earn a detail each, and the answer would be fifty times the file.
  if (dataRows.length > MAX_EVENTS) {
    const message = `The file has ${dataRows.length} event rows; at most ${MAX_EVENTS} are accepted in one submission`;
    return { body: null, details: [invalid("events", message)] };
  }

  const first = byColumn(firstCells);
  const details: Problem[] = [];
  const events = dataRows.map((cells, eventIndex) => {
    const row = byColumn(cells);
    if (cells.length !== CSV_COLUMNS.length) {
      const count = `${cells.length} cell${cells.length === 1 ? "" : "s"}`;
      details.push(invalid("row", `Row has ${count}; expected ${CSV_COLUMNS.length}`, eventIndex));
    }
    if (row.fixtureId !== first.fixtureId) {
      const message = `Every row must name the same fixture as the first row (${shown(first.fixtureId)})`;
      details.push(invalid("fixtureId", message, eventIndex));
    }
    if (row.schemaVersion !== first.schemaVersion) {
      const message = `Every row must name the same schema version as the first row (${shown(first.schemaVersion)})`;
      details.push(invalid("schemaVersion", message, eventIndex));
    }
    const wickets = readWickets(row.wickets);
    if (wickets === undefined) {
      details.push(invalid("wickets", `The wickets cell must be a JSON array, e.g. ${WICKETS_EXAMPLE}`, eventIndex));
    }
    // An unreadable wickets cell is reported here only, so the validator sees an empty list.
    return toEvent(row, wickets ?? []);
  });

  return {
    body: {
      ...present({ fixtureId: blankless(first.fixtureId), schemaVersion: blankless(first.schemaVersion) }),
      events,
    },
    details,
  };
}

function checkHeader(header: string[] | undefined): string | undefined {
  if (header === undefined) return `The file is empty; expected a header row with ${EXPECTED_COLUMNS}`;
  const position = CSV_COLUMNS.findIndex((column, i) => header[i] !== column);
  if (position >= 0) return `Expected ${EXPECTED_COLUMNS} (column ${position + 1} should be ${CSV_COLUMNS[position]})`;
  if (header.length > CSV_COLUMNS.length) return `Expected ${EXPECTED_COLUMNS} (found ${header.length} columns)`;
  return undefined;
}

// Cells a short row lacks read as blank, so the rest of the row is still judged.
function byColumn(cells: readonly string[]): Row {
  const row: Record<string, string> = {};
  for (const [i, column] of CSV_COLUMNS.entries()) row[column] = cells[i] ?? "";
  return row as Row;
}

function toEvent(row: Row, wickets: unknown): Record<string, unknown> {
  return present({
    eventId: blankless(row.eventId),
    inningsId: blankless(row.inningsId),
    sequenceNumber: integer(row.sequenceNumber),
    overNumber: integer(row.overNumber),
    positionInOver: integer(row.positionInOver),
    ballNumber: blankless(row.ballNumber),
    strikerId: blankless(row.strikerId),
    nonStrikerId: blankless(row.nonStrikerId),
    bowlerId: blankless(row.bowlerId),
    runs: present({
      offBat: integer(row.runsOffBat),
      extras: integer(row.runsExtras),
      total: integer(row.runsTotal),
      nonBoundary: flag(row.runsNonBoundary),
    }),
    extras: present({
      wides: integer(row.extraWides),
      noBalls: integer(row.extraNoBalls),
      byes: integer(row.extraByes),
      legByes: integer(row.extraLegByes),
      penalty: integer(row.extraPenalty),
    }),
    wickets,
  });
}

/** The parsed cell, `[]` for a blank one, or undefined when it is not JSON. */
function readWickets(cell: string): unknown {
  if (cell === "") return [];
  try {
    return parseJson(cell);
  } catch {
    return undefined;
  }
}

// A blank cell is an absent value: omitting the key lets the validator report a required one as missing.
const blankless = (cell: string) => (cell === "" ? undefined : cell);

// Anything but a plain integer stays text, so the validator reports it as not a number.
const integer = (cell: string) => (INTEGER.test(cell) ? Number(cell) : blankless(cell));

function flag(cell: string): boolean | string | undefined {
  const lower = cell.toLowerCase();
  if (lower === "true") return true;
  if (lower === "false") return false;
  return blankless(cell);
}

// Drops the keys of absent values, as a JSON uploader would leave them out rather than send null.
function present(values: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key in values) if (values[key] !== undefined) kept[key] = values[key];
  return kept;
}

const shown = (cell: string) => (cell === "" ? "blank" : clip(cell));

const clip = (text: string) => (text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}…` : text);

const invalid = (field: string, message: string, eventIndex?: number): Problem =>
  eventIndex === undefined
    ? { code: "INVALID_FIELD", message, field }
    : { code: "INVALID_FIELD", message, field, eventIndex };
