import { BEYOND_LIMITS, type Column, columnAt, columnNamed, type Level } from "./columns.js";
import type { Fault } from "./package.js";

/**
 * A tabular package (CSV, or the sheets of an XLSX) read into the package's JSON shape:
 * rows grouped into fixtures and innings by their context columns, in the order each first
 * appears (a row's position is never a delivery's identity or order: occurrenceSequence is).
 * What only a table can get wrong is found here; everything else is the package's rules,
 * applied to what this builds, and traced back to a row and column by `locate`.
 */

/** A table as read: its header and rows, each row with its number in the source (1 is the first line). */
export type Table = { sheet?: string; headerRow: number; header: string[]; rows: { row: number; cells: string[] }[] };

/** Where in a table a path of the package lies. */
export type Cell = { sheet?: string; row: number; column?: string };

export type TableReading = {
  /** The package's head, as the first row (or the manifest) gives it. */
  head: Record<string, unknown>;
  fixtures: unknown[];
  /** Faults only a table has: of the header (`faults`), and of each row, by its item's path. */
  faults: Fault[];
  rowFaults: Map<string, Fault[]>;
  locate: (path: string) => Cell | undefined;
};

type RowFault = { code: string; message: string; column: string };
type Row = { at: Cell; values: Map<Column, string>; faults: RowFault[] };
type Innings = { first: Row; rows: Row[] };
type Fixture = { first: Row; innings: Map<string, Innings> };

/**
 * Reads `tables` as one package. `head`, when the package has one elsewhere (a manifest),
 * is what every row's package columns must agree with; else the first row's are.
 */
export function readTables(tables: readonly Table[], head?: Record<string, unknown>): TableReading {
  const faults: Fault[] = [];
  const rows = tables.flatMap((table) => rowsOf(table, faults));
  const fixtures = new Map<string, Fixture>();
  const [firstRow] = rows;
  const expected = head === undefined ? firstRow : fromObject(head, firstRow?.at);
  for (const row of rows) {
    if (expected) mustAgree(row, expected, "package");
    const fixture = firstOf(fixtures, fixtureKey(row), () => ({ first: row, innings: new Map() }));
    mustAgree(row, fixture.first, "fixture");
    const innings = firstOf(fixture.innings, row.values.get(ORDINAL) ?? "", () => ({ first: row, rows: [] }));
    mustAgree(row, innings.first, "innings");
    innings.rows.push(row);
  }
  return build(expected, [...fixtures.values()], faults);
}

function firstOf<T>(groups: Map<string, T>, key: string, make: () => T): T {
  const group = groups.get(key) ?? make();
  groups.set(key, group);
  return group;
}

const ORDINAL = columnNamed.get("inningsordinal") as Column;
const WICKET_KIND = columnNamed.get("wicketkind") as Column;

function rowsOf(table: Table, faults: Fault[]): Row[] {
  const header = table.header.map((name, i) => headerColumn(name, i, table, faults));
  return table.rows.flatMap(({ row, cells }) => {
    const at: Cell = { ...(table.sheet === undefined ? {} : { sheet: table.sheet }), row };
    const values = new Map<Column, string>();
    const rowFaults: RowFault[] = [];
    cells.forEach((raw, i) => {
      const value = raw.trim();
      const column = header[i];
      if (value === "" || column === undefined) return;
      if ("code" in column) rowFaults.push({ code: column.code, message: MESSAGES[column.code], column: column.name });
      else values.set(column, value);
    });
    // A row left blank (a spreadsheet's trailing rows) is no delivery.
    return values.size === 0 && rowFaults.length === 0 ? [] : [{ at, values, faults: rowFaults }];
  });
}

type Unread = { name: string; code: keyof typeof MESSAGES };

/** The column a header cell names; a column no row may fill is a fault of the header. */
function headerColumn(name: string, index: number, table: Table, faults: Fault[]): Column | Unread | undefined {
  const written = name.trim();
  if (written === "") return undefined;
  const known = columnNamed.get(written.toLowerCase());
  const repeated = table.header.slice(0, index).some((h) => h.trim().toLowerCase() === written.toLowerCase());
  const code: Unread["code"] | undefined = repeated
    ? "CSV_DUPLICATE_COLUMN"
    : known
      ? undefined
      : (BEYOND_LIMITS.find((b) => b.pattern.test(written))?.code ?? "CSV_UNKNOWN_COLUMN");
  if (code === undefined) return known;
  faults.push({
    code,
    message: MESSAGES[code],
    path: "header",
    ...(table.sheet === undefined ? {} : { sheet: table.sheet }),
    row: table.headerRow,
    column: written,
  });
  return { name: written, code };
}

const MESSAGES = {
  CSV_DUPLICATE_COLUMN: "Another column of the header has this name; neither is read",
  CSV_UNKNOWN_COLUMN: "No column of a package has this name (docs/batches.md, CSV and XLSX packages); it is not read",
  CSV_TOO_MANY_FIELDERS: "A row names at most three fielders (fielder1 to fielder3)",
  CSV_TOO_MANY_DISMISSALS: "A row holds at most one dismissal (wicketKind, playerOut)",
};

/** One fixture's rows share its source id or, without one, its date and teams. */
function fixtureKey(row: Row): string {
  const value = (name: string) => row.values.get(columnNamed.get(name.toLowerCase()) as Column) ?? "";
  const sourceId = value("fixtureSourceId");
  if (sourceId !== "") return `source\u001f${sourceId}`;
  return ["fixtureDate", "team1", "team1SourceId", "team2", "team2SourceId"].map(value).join("\u001f");
}

/** A row's context columns at `level` must say what the first row of its fixture (or innings, or package) says. */
function mustAgree(row: Row, first: Row, level: Level): void {
  if (row === first) return;
  for (const column of COLUMNS_AT[level]) {
    const mine = row.values.get(column) ?? "";
    const theirs = first.values.get(column) ?? "";
    if (mine !== theirs)
      row.faults.push({
        code: "CSV_CONTEXT_MISMATCH",
        message: `Every row of the ${level} says the same here: ${describe(first.at)} has ${theirs === "" ? "it blank" : JSON.stringify(theirs.slice(0, 100))}`,
        column: column.name,
      });
  }
}

const describe = (at: Cell) => (at.sheet === undefined ? `row ${at.row}` : `row ${at.row} of ${at.sheet}`);

const COLUMNS_AT = Object.fromEntries(
  (["package", "fixture", "innings", "event"] as const).map((level) => [
    level,
    [...columnNamed.values()].filter((c) => c.level === level),
  ]),
) as Record<Level, Column[]>;

/** A manifest's head as the row its package columns would be. */
function fromObject(head: Record<string, unknown>, at: Cell | undefined): Row {
  const values = new Map<Column, string>();
  for (const column of COLUMNS_AT.package) {
    const value = valueAt(head, column.path);
    if (typeof value === "string" || typeof value === "number") values.set(column, String(value));
  }
  return { at: at ?? { row: 1 }, values, faults: [] };
}

function build(head: Row | undefined, fixtures: Fixture[], faults: Fault[]): TableReading {
  const places = new Map<string, Cell>();
  const rowFaults = new Map<string, Fault[]>();
  const built = fixtures.map((fixture, f) => {
    places.set(`fixtures.${f}`, fixture.first.at);
    return {
      ...objectOf(fixture.first, "fixture"),
      innings: [...fixture.innings.values()].map((innings, i) => {
        places.set(`fixtures.${f}.innings.${i}`, innings.first.at);
        return {
          ...objectOf(innings.first, "innings"),
          events: innings.rows.map((row, e) => {
            const path = `fixtures.${f}.innings.${i}.events.${e}`;
            places.set(path, row.at);
            const event = eventOf(row);
            if (row.faults.length > 0)
              rowFaults.set(
                path,
                row.faults.map((fault) => itemFault(fault, path)),
              );
            return event;
          }),
        };
      }),
    };
  });
  const headAt = head?.at ?? { row: 2 };
  return {
    head: head ? objectOf(head, "package") : {},
    fixtures: built,
    faults,
    rowFaults,
    locate: (path) => locate(path, places, headAt),
  };
}

/** A row's fault as its item's: at the path its column fills when that is the delivery's own, else at the item. */
function itemFault({ column, ...fault }: RowFault, item: string): Fault {
  const own = columnNamed.get(column.toLowerCase());
  return { ...fault, path: own?.level === "event" ? `${item}.${own.path}` : item, column };
}

/**
 * A row's delivery. A dismissed player or fielder without the dismissal's kind is the
 * specification's CSV_WICKET_KIND_MISSING, and the half-written dismissal is not read.
 */
function eventOf(row: Row): Record<string, unknown> {
  const event = objectOf(row, "event");
  const wicket = [...row.values.keys()].some((c) => c.path.startsWith("wickets.") && c !== WICKET_KIND);
  if (wicket && !row.values.has(WICKET_KIND)) {
    row.faults.push({
      code: "CSV_WICKET_KIND_MISSING",
      message: "The row names a dismissed player or a fielder but no wicketKind",
      column: WICKET_KIND.name,
    });
    delete event.wickets;
  }
  return event;
}

/** The object a row's columns at `level` make, each value where its column's path says. */
function objectOf(row: Row, level: Level): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [column, value] of row.values)
    if (column.level === level) setAt(object, column.path, typed(column, value));
  return object;
}

const INTEGER = /^-?\d{1,15}$/;

/** Anything that is not what the column holds stays text, so the package's rules report it at its column. */
function typed(column: Column, value: string): unknown {
  if (column.kind === "integer" && INTEGER.test(value)) return Number(value);
  if (column.kind === "boolean" && /^(?:true|false)$/i.test(value)) return value.toLowerCase() === "true";
  return value;
}

function setAt(object: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let into: Record<string, unknown> = object;
  keys.slice(0, -1).forEach((key, i) => {
    into[key] ??= /^\d+$/.test(keys[i + 1] as string) ? [] : {};
    into = into[key] as Record<string, unknown>;
  });
  into[keys.at(-1) as string] = value;
}

function valueAt(object: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], object);
}

const PLACE = /^(fixtures\.\d+(?:\.innings\.\d+(?:\.events\.\d+)?)?)(?:\.(.+))?$/;

function locate(path: string, places: Map<string, Cell>, headAt: Cell): Cell | undefined {
  const match = PLACE.exec(path);
  const [, object, rest = ""] = match ?? [undefined, undefined, path];
  const at = object === undefined ? headAt : places.get(object);
  if (!at) return undefined;
  const level: Level =
    object === undefined
      ? "package"
      : object.includes(".events.")
        ? "event"
        : object.includes(".innings.")
          ? "innings"
          : "fixture";
  const column = rest === "" ? undefined : columnAt(level, rest);
  return { ...at, ...(column ? { column: column.name } : {}) };
}
