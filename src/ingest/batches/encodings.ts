import type { ReceivedFile } from "../../../streams/batch.js";
import { storable } from "../../../streams/shared.js";
import { PackageUnreadable } from "../../commands/batches/errors.js";
import { sha256 } from "../../commands/submissions/submit.js";
import { csvTable } from "./csv.js";
import type { Table } from "./table.js";
import { XLSX_MEDIA_TYPE, xlsxTables } from "./xlsx.js";

/**
 * The encodings a package (or a manifest's file) comes in, and how each is stored in the
 * batch's `BatchReceived`: text as it was sent, a workbook as base64 of its bytes.
 */

export const CSV_MEDIA_TYPE = "text/csv";
export const TABLE_MEDIA_TYPES = [CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE] as const;
export type TableMediaType = (typeof TABLE_MEDIA_TYPES)[number];

export const isTable = (mediaType: string): mediaType is TableMediaType =>
  (TABLE_MEDIA_TYPES as readonly string[]).includes(mediaType);

/**
 * A table's rows, refused (PackageUnreadable at `field`) when they cannot be a package's:
 * not CSV or XLSX, a formula, or text the database cannot hold. A CSV cell starting with `=`
 * counts as a formula too: it would be one in the spreadsheet of whoever opens a report.
 */
export async function tablesOf(bytes: Uint8Array, mediaType: TableMediaType, field: string): Promise<Table[]> {
  const tables = mediaType === CSV_MEDIA_TYPE ? [csvTable(bytes, field)] : await xlsxTables(bytes, field);
  for (const table of tables)
    for (const { row, cells } of [{ row: table.headerRow, cells: table.header }, ...table.rows])
      cells.forEach((cell, i) => {
        const where = `${table.sheet === undefined ? "" : `${table.sheet}, `}row ${row}, column ${i + 1}`;
        if (!storable(cell)) throw PackageUnreadable.at(field, `The cell at ${where} holds text that cannot be stored`);
        if (cell.trimStart().startsWith("="))
          throw PackageUnreadable.at(
            field,
            `The cell at ${where} holds a formula; send values only`,
            "FORMULA_NOT_ALLOWED",
          );
      });
  return tables;
}

/** A file as the batch's stream keeps it. */
export function receivedFile(name: string, mediaType: string, bytes: Uint8Array): ReceivedFile {
  const text = mediaType !== XLSX_MEDIA_TYPE;
  return {
    name,
    mediaType,
    size: bytes.byteLength,
    sha256: sha256(bytes),
    content: text ? new TextDecoder().decode(bytes) : Buffer.from(bytes).toString("base64"),
    contentEncoding: text ? "utf8" : "base64",
  };
}

/** A stored file's bytes. */
export const bytesOf = (file: ReceivedFile): Uint8Array =>
  file.contentEncoding === "base64" ? Buffer.from(file.content, "base64") : new TextEncoder().encode(file.content);
