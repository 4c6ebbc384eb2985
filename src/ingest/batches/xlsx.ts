import ExcelJS from "exceljs";
import yauzl from "yauzl";
import { PackageUnreadable } from "../../commands/batches/errors.js";
import type { Table } from "./table.js";

/**
 * A package sent as an XLSX workbook: each sheet a table with the CSV's columns (its header
 * in its first non-empty row), the sheets read in workbook order as one package. A workbook
 * is a zip archive, so its entries are counted and every byte of them inflated under caps
 * before the workbook parser sees it: a zip bomb, or a workbook of thousands of sheets, is
 * refused without being unpacked into memory (docs/batches.md, "CSV and XLSX packages").
 */

export const XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export const XLSX_LIMITS = {
  /** Entries of the archive: a workbook of a few sheets has a dozen or two. */
  entries: 1_000,
  sheets: 100,
  /** Inflated bytes of all entries together: a megabyte of XLSX holds about ten of XML. */
  inflatedBytes: 64 * 1024 * 1024,
};

const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/;

/** The workbook's sheets as tables, or PackageUnreadable naming what stops it being read. */
export async function xlsxTables(bytes: Uint8Array, field: string): Promise<Table[]> {
  const refuse = (message: string, code?: string) => PackageUnreadable.at(field, message, code);
  await inspectArchive(Buffer.from(bytes), refuse);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  } catch {
    throw refuse("The body is not a readable XLSX workbook");
  }
  return workbook.worksheets.flatMap((sheet) => tableOf(sheet, refuse));
}

type Refuse = (message: string, code?: string) => PackageUnreadable;

/**
 * Checks the archive before it is parsed: its entry and sheet counts, and its inflated size
 * by inflating it (yauzl stops an entry the moment it inflates past the size it declares, so
 * a lying header cannot slip a bomb through).
 */
async function inspectArchive(buffer: Buffer, refuse: Refuse): Promise<void> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, opened) =>
      error ? reject(refuse("The body is not an XLSX workbook (not a zip archive)")) : resolve(opened),
    ),
  );
  let entries = 0;
  let sheets = 0;
  let inflated = 0;
  await new Promise<void>((resolve, reject) => {
    const fail = (error: PackageUnreadable) => {
      zip.close();
      reject(error);
    };
    zip.on("entry", (entry: yauzl.Entry) => {
      entries++;
      if (WORKSHEET.test(entry.fileName)) sheets++;
      inflated += entry.uncompressedSize;
      if (entries > XLSX_LIMITS.entries) return fail(refuse(`The workbook has over ${XLSX_LIMITS.entries} parts`));
      if (sheets > XLSX_LIMITS.sheets) return fail(refuse(`The workbook has over ${XLSX_LIMITS.sheets} sheets`));
      if (inflated > XLSX_LIMITS.inflatedBytes)
        return fail(refuse(`The workbook inflates to over ${XLSX_LIMITS.inflatedBytes} bytes`));
      zip.openReadStream(entry, (error, stream) => {
        if (error) return fail(refuse("The workbook's archive is damaged"));
        stream.on("data", () => {});
        stream.once("error", () => fail(refuse("The workbook's archive is damaged or misstates its sizes")));
        stream.once("end", () => zip.readEntry());
      });
    });
    zip.once("end", resolve);
    zip.once("error", () => fail(refuse("The workbook's archive is damaged")));
    zip.readEntry();
  });
}

/** A sheet's rows as text, from its first non-empty row (the header) on; an empty sheet is none. */
function tableOf(sheet: ExcelJS.Worksheet, refuse: Refuse): Table[] {
  const rows: { row: number; cells: string[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: false }, (cell, column) => {
      cells[column - 1] = text(cell, sheet.name, refuse);
    });
    rows.push({ row: number, cells: Array.from(cells, (c) => c ?? "") });
  });
  const [header, ...data] = rows;
  return header ? [{ sheet: sheet.name, headerRow: header.row, header: header.cells, rows: data }] : [];
}

/**
 * A cell as the text a CSV would hold. A formula is refused, never evaluated or taken at its
 * cached result: the package is data, and a cell's value must be what the sender typed.
 */
function text(cell: ExcelJS.Cell, sheet: string, refuse: Refuse): string {
  const where = `${sheet}!${cell.address}`;
  const value = cell.value;
  if (cell.type === ExcelJS.ValueType.Formula || (typeof value === "object" && value !== null && "formula" in value))
    throw refuse(`The cell ${where} holds a formula; send values only`, "FORMULA_NOT_ALLOWED");
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== "object") return String(value);
  if ("richText" in value) return value.richText.map((run) => run.text).join("");
  if ("text" in value && typeof value.text === "string") return value.text;
  if ("error" in value) throw refuse(`The cell ${where} holds the error ${String(value.error)}`);
  throw refuse(`The cell ${where} holds a value that is not text, a number, a date or true/false`);
}
