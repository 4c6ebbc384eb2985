import { parse } from "csv-parse/sync";
import { PackageUnreadable } from "../../commands/batches/errors.js";
import type { Table } from "./table.js";

/**
 * A package sent as CSV: UTF-8 text, a header row naming its columns (docs/batches.md, "CSV
 * and XLSX packages"), one delivery per row. Only what stops the text being a table is
 * refused here; a row's faults are validation's.
 */
export function csvTable(bytes: Uint8Array, field: string): Table {
  const refuse = (message: string) => PackageUnreadable.at(field, message);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw refuse("The CSV is not UTF-8 text");
  }
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as {
      record: string[];
      info: { lines: number };
    }[];
  } catch (error) {
    // csv-parse's messages name the problem and the line it is on.
    throw refuse(
      `The body is not valid CSV: ${(error instanceof Error ? error.message : String(error)).slice(0, 200)}`,
    );
  }
  const [header, ...rows] = records.map(({ record, info }) => ({ row: firstLine(record, info.lines), cells: record }));
  if (!header) throw refuse("The CSV is empty: a header row naming its columns comes first");
  return { headerRow: header.row, header: header.cells, rows };
}

/** A record's first line: the parser counts to its last, and a quoted cell may hold line breaks. */
const firstLine = (cells: readonly string[], last: number) =>
  last - cells.reduce((breaks, cell) => breaks + (cell.match(/\r\n|\n|\r/g)?.length ?? 0), 0);
