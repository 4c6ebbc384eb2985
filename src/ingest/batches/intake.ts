import { z } from "zod";
import { CONTRACT_VERSIONS, type ReceivedFile } from "../../../streams/batch.js";
import type { Reference } from "../../batches/references.js";
import { PackageUnreadable } from "../../commands/batches/errors.js";
import { zodDetails } from "../../commands/problems.js";
import { CSV_MEDIA_TYPE, receivedFile, type TableMediaType, tablesOf } from "./encodings.js";
import { namedReference } from "./package.js";
import { readTables, type TableReading } from "./table.js";

/**
 * What intake reads of a package before it is stored: enough to know it is a package of a
 * version we take, what the sender calls it and which competition it is for (who may send
 * and see it depends on that). Every other rule is validation's, after the 202
 * (docs/batches.md, "Intake").
 */

const head = z.looseObject({
  contractVersion: z.string(),
  packageId: z.string().trim().min(1).max(200),
  competition: namedReference,
});

export type PackageHead = {
  contractVersion: (typeof CONTRACT_VERSIONS)[number];
  packageId: string;
  competition: Reference;
};

/** A package as received: its head, its bytes as files, and the checksum of what was sent. */
export type Intake = { head: PackageHead; files: ReceivedFile[]; checksum: string };

/** Reads the head of a package; throws PackageUnreadable naming every problem of it. */
export function readHead(body: unknown): PackageHead {
  const parsed = head.safeParse(body);
  if (!parsed.success)
    throw new PackageUnreadable(zodDetails(parsed.error, (path) => ({ field: path.join(".") || "body" })));
  const { contractVersion, packageId, competition } = parsed.data;
  if (!(CONTRACT_VERSIONS as readonly string[]).includes(contractVersion))
    throw new PackageUnreadable([
      {
        code: "UNSUPPORTED_CONTRACT_VERSION",
        message: `Package contract version ${JSON.stringify(contractVersion).slice(0, 40)} is not supported; send 1.0 or 1.1`,
        field: "contractVersion",
      },
    ]);
  return { contractVersion: contractVersion as PackageHead["contractVersion"], packageId, competition };
}

/**
 * A package sent as one JSON body (`text`, already parsed as `body`). Its checksum is the
 * SHA-256 of the body as UTF-8: the bytes sent, for any body that is UTF-8 without a BOM.
 */
export function jsonPackage(text: string, body: unknown): Intake {
  const file = receivedFile("package.json", "application/json", new TextEncoder().encode(text));
  return { head: readHead(body), files: [file], checksum: file.sha256 };
}

/**
 * A package sent as one CSV or XLSX body: its head is what the first row's package columns
 * say (every other row must say the same; validation checks that), its checksum the SHA-256
 * of the bytes sent.
 */
export async function tablePackage(bytes: Uint8Array, mediaType: TableMediaType): Promise<Intake> {
  const reading = readTables(await tablesOf(bytes, mediaType, "body"));
  if (reading.fixtures.length === 0) throw PackageUnreadable.at("body", "The table has a header but no delivery rows");
  const file = receivedFile(mediaType === CSV_MEDIA_TYPE ? "package.csv" : "package.xlsx", mediaType, bytes);
  return { head: headOfRow(reading), files: [file], checksum: file.sha256 };
}

/** The head a table's first row gives, its problems named by their columns. */
function headOfRow(reading: TableReading): PackageHead {
  try {
    return readHead(reading.head);
  } catch (error) {
    if (!(error instanceof PackageUnreadable)) throw error;
    const column = (field: string) => reading.locate(field)?.column ?? field;
    throw new PackageUnreadable((error.details ?? []).map((d) => ({ ...d, field: column(d.field) })));
  }
}
