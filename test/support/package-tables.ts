import { stringify } from "csv-stringify/sync";
import ExcelJS from "exceljs";
import { COLUMNS, type Level } from "../../src/ingest/batches/columns.js";

/**
 * A JSON package written as the tabular encoding's rows (docs/batches.md, "CSV and XLSX
 * packages"): a header naming every column, then one row per delivery with its package,
 * fixture and innings context repeated. Throws on what a row cannot hold (two dismissals, a
 * fourth fielder), so a test never loses a delivery's content on the way.
 */

type Json = Record<string, unknown>;

export function packageRows(pkg: Json): string[][] {
  const rows: string[][] = [COLUMNS.map((c) => c.name)];
  for (const fixture of pkg.fixtures as Json[])
    for (const innings of fixture.innings as Json[])
      for (const event of innings.events as Json[]) {
        const wickets = (event.wickets as Json[] | undefined) ?? [];
        if (wickets.length > 1 || ((wickets[0]?.fielders as unknown[] | undefined)?.length ?? 0) > 3)
          throw new Error(`A row cannot hold event ${String(event.eventId)}`);
        const at: Record<Level, Json> = { package: pkg, fixture, innings, event };
        rows.push(COLUMNS.map((c) => cell(valueAt(at[c.level], c.path))));
      }
  return rows;
}

export const packageCsv = (pkg: Json) => stringify(packageRows(pkg));

/** The package as a workbook: its rows over `sheets` sheets (each with the header), in order. */
export async function packageXlsx(pkg: Json, { sheets = 1 } = {}): Promise<Uint8Array> {
  const [header, ...rows] = packageRows(pkg);
  const workbook = new ExcelJS.Workbook();
  const size = Math.ceil(rows.length / sheets);
  for (let s = 0; s < sheets; s++) {
    const sheet = workbook.addWorksheet(`Deliveries ${s + 1}`);
    sheet.addRow(header);
    for (const row of rows.slice(s * size, (s + 1) * size)) sheet.addRow(row.map(typedCell));
  }
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** Numbers as numbers, as a spreadsheet holds them. */
const typedCell = (text: string) => (/^\d+$/.test(text) ? Number(text) : text);

const cell = (value: unknown) => (value === undefined || value === null ? "" : String(value));

const valueAt = (object: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((at, key) => (at as Json | undefined)?.[key], object);

export const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
