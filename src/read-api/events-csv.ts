import { stringify } from "csv-stringify/sync";
import { CSV_COLUMNS } from "../submissions/csv.js";
import { SCHEMA_VERSION } from "../submissions/schema.js";
import { type DeliveryRow, extrasOf } from "./queries/events.js";
import type { Event } from "./schemas/event.js";

/**
 * The direct-submission CSV upload format, so an exported file can be uploaded again
 * unchanged: exactly the specification's header order, `schemaVersion` 1.0, an absent
 * optional value as an empty cell, and `wickets` as a JSON array in its cell (empty when
 * there is none).
 */

const cell = (value: string | number | boolean | null | undefined) =>
  value === null || value === undefined ? "" : String(value);

function record(r: DeliveryRow): string[] {
  const extras = extrasOf(r);
  // The submission's own shape and key order (the stored JSON's key order is the database's).
  const wickets = r.wickets.map((w) => ({
    kind: w.kind,
    playerOutId: w.playerOutId,
    fielders: w.fielders.map((f) => ({ participantId: f.participantId, substitute: f.substitute })),
  }));
  return [
    r.fixture_id,
    SCHEMA_VERSION,
    r.event_id,
    r.innings_id,
    r.sequence_number,
    r.over_number,
    r.position_in_over,
    r.ball_number,
    r.striker_id,
    r.non_striker_id,
    r.bowler_id,
    r.runs_off_bat,
    r.runs_extras,
    r.runs_total,
    r.runs_non_boundary,
    extras.wides,
    extras.noBalls,
    extras.byes,
    extras.legByes,
    extras.penalty,
    wickets.length ? JSON.stringify(wickets) : null,
  ].map(cell);
}

/** RFC 4180 CSV lines (CRLF line ends, quotes where needed) of the rows, without the header. */
export const eventsCsvRows = (rows: readonly DeliveryRow[]) =>
  stringify(rows.map(record), { record_delimiter: "windows" });

export const eventsCsvHeader = stringify([[...CSV_COLUMNS]], { record_delimiter: "windows" });

/** The whole file: the header row, then the rows. */
export const eventsCsv = (rows: readonly DeliveryRow[]) => eventsCsvHeader + eventsCsvRows(rows);

/**
 * Columns for reading rather than uploading, after the upload columns (`columns=readable`):
 * the innings counted from 1, the teams by the names they played under, the players by
 * name, and each wicket's kind, player out and fielders in their own cells. A ball with two
 * wickets (rare: a run out and a retirement) holds both, ` | ` between them; a wicket's
 * fielders are `; `-separated, a substitute marked `(sub)`. A name the reference data does
 * not have yet is an empty cell (the ids stay in the upload columns).
 */
export const READABLE_COLUMNS = [
  "innings",
  "battingTeam",
  "bowlingTeam",
  "striker",
  "nonStriker",
  "bowler",
  "wicketKind",
  "playerOut",
  "fielders",
] as const;

/** The names the teams of each innings played under, by innings id. */
export type InningsTeams = ReadonlyMap<string, { batting: string | null; bowling: string | null }>;

const perWicket = (e: Event, text: (w: Event["wickets"][number]) => string | null) =>
  e.wickets.map((w) => text(w) ?? "").join(" | ");

/**
 * Text a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, carriage return first)
 * is prefixed with `'`: names and wicket kinds come from submitters, and this file is made to
 * be opened in one (OWASP's CSV injection advice). The upload columns hold ids and numbers.
 */
const inert = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

function readable(e: Event, teams: InningsTeams): string[] {
  const innings = teams.get(e.inningsId);
  const [ordinal, ...texts] = [
    e.inningsOrdinal + 1,
    innings?.batting,
    innings?.bowling,
    e.strikerName,
    e.nonStrikerName,
    e.bowlerName,
    perWicket(e, (w) => w.kind),
    perWicket(e, (w) => w.playerOutName),
    perWicket(e, (w) => w.fielders.map((f) => `${f.name ?? ""}${f.substitute ? " (sub)" : ""}`).join("; ")),
  ].map(cell);
  return [ordinal as string, ...texts.map(inert)];
}

export const readableCsvHeader = stringify([[...CSV_COLUMNS, ...READABLE_COLUMNS]], { record_delimiter: "windows" });

/** The rows with their readable columns; `events` are the rows as public events, in the same order. */
export const readableCsvRows = (rows: readonly DeliveryRow[], events: readonly Event[], teams: InningsTeams) =>
  stringify(
    rows.map((r, i) => [...record(r), ...readable(events[i] as Event, teams)]),
    { record_delimiter: "windows" },
  );
