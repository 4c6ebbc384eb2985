import { BatchReceived, type ReceivedFile } from "../../streams/batch.js";
import type { Batch } from "../../streams/batch-state.js";
import { parseJson } from "../bounded-json.js";
import { PackageUnreadable } from "../commands/batches/errors.js";
import type { RecordedEvent } from "../event-store/port.js";
import { bytesOf, isTable, tablesOf } from "../ingest/batches/encodings.js";
import { MANIFEST_NAME } from "../ingest/batches/manifest.js";
import { type Fault, type ReadPackage, readPackage } from "../ingest/batches/package.js";
import { readTables } from "../ingest/batches/table.js";

/**
 * The package a batch's files hold, read for validation, and where each of its paths lies in
 * them. One JSON file is the package as it is; one CSV or XLSX file is its rows read into
 * the package's shape; a manifest's files make one package whose fixtures are theirs in
 * manifest order, each path then named within its own file (and row, for a table).
 */

/** Where a path of the package lies: the path within its file, the file, and for a table its sheet, row and column. */
export type Place = { path: string; file?: string; sheet?: string; row?: number; column?: string };
export type Locate = (path: string) => Place;

/** A file's part of the package: its fixtures, the faults only its encoding has, and where its own paths lie. */
type Part = { fixtures: unknown[]; head?: Record<string, unknown>; faults: Fault[]; rowFaults: Map<string, Fault[]> };
type PartLocate = (path: string) => Omit<Place, "path" | "file"> | undefined;

/**
 * The package of a batch as its stream says it now: the files it was received with, read,
 * with the items its sender resubmitted in their places and the references its mappings chose.
 */
export async function batchPackage(
  history: readonly RecordedEvent[],
  batch: Batch,
): Promise<{ read: ReadPackage; locate: Locate }> {
  const received = history.find((e) => e.type === BatchReceived.type);
  const { read, locate } = await packageIn(BatchReceived.schema.parse(received?.data).files, batch.replacements);
  const mappings = new Map([...batch.mappings].map(([path, { entityId }]) => [path, entityId]));
  return { read: { ...read, mappings }, locate };
}

export async function packageIn(
  files: readonly ReceivedFile[],
  replacements: ReadonlyMap<number, unknown> = new Map(),
): Promise<{ read: ReadPackage; locate: Locate }> {
  const [first, ...parts] = files;
  if (!first) return { read: readPackage(undefined), locate: (path) => ({ path }) };
  if (first.name !== MANIFEST_NAME || parts.length === 0) {
    const { part, locate } = await partOf(first);
    const body = part.head ? { ...part.head, fixtures: part.fixtures } : jsonOf(first);
    return {
      read: withFaults(readPackage(body, replacements), part, replacements),
      locate: (path) => ({ path, ...locate(path) }),
    };
  }
  const { files: _, ...head } = jsonOf(first) as Record<string, unknown>;
  const origins: { file: string; index: number; locate: PartLocate }[] = [];
  const whole: Part = { fixtures: [], faults: [], rowFaults: new Map() };
  for (const file of parts) {
    const { part, locate } = await partOf(file, head);
    const offset = whole.fixtures.length;
    part.fixtures.forEach((fixture, index) => {
      origins.push({ file: file.name, index, locate });
      whole.fixtures.push(fixture);
    });
    whole.faults.push(...part.faults.map((f) => ({ ...f, file: file.name })));
    for (const [path, faults] of part.rowFaults) whole.rowFaults.set(shifted(path, offset), faults);
  }
  const locate: Locate = (path) => {
    const match = /^fixtures\.(\d+)(.*)$/.exec(path);
    const origin = match ? origins[Number(match[1])] : undefined;
    if (!origin) return { path };
    const own = `fixtures.${origin.index}${match?.[2] ?? ""}`;
    return { path: own, file: origin.file, ...origin.locate(own) };
  };
  return {
    read: withFaults(readPackage({ ...head, fixtures: whole.fixtures }, replacements), whole, replacements),
    locate,
  };
}

/**
 * One file's part. A table's package columns must agree with `head` when the package has one
 * elsewhere (a manifest). A file that no longer reads as it did at intake (it cannot, unless
 * the reader changed) contributes nothing and a fault saying so.
 */
async function partOf(file: ReceivedFile, head?: Record<string, unknown>): Promise<{ part: Part; locate: PartLocate }> {
  if (!isTable(file.mediaType)) {
    const fixtures = (jsonOf(file) as { fixtures?: unknown } | undefined)?.fixtures;
    return {
      part: { fixtures: Array.isArray(fixtures) ? fixtures : [], faults: [], rowFaults: new Map() },
      locate: () => undefined,
    };
  }
  try {
    const reading = readTables(await tablesOf(bytesOf(file), file.mediaType, file.name), head);
    return { part: reading, locate: reading.locate };
  } catch (error) {
    if (!(error instanceof PackageUnreadable)) throw error;
    const faults = (error.details ?? []).map((d) => ({ code: d.code, message: d.message, path: "package" }));
    return { part: { fixtures: [], faults, rowFaults: new Map() }, locate: () => undefined };
  }
}

/** The faults only a table has, among the package's: the header's, and each row's on its item (a replaced item's row is no longer read). */
function withFaults(read: ReadPackage, part: Part, replacements: ReadonlyMap<number, unknown>): ReadPackage {
  for (const item of read.items)
    if (!replacements.has(item.ordinal)) item.faults.push(...(part.rowFaults.get(item.path) ?? []));
  return { ...read, faults: [...part.faults, ...read.faults] };
}

const shifted = (path: string, offset: number) =>
  path.replace(/^fixtures\.(\d+)/, (_, index: string) => `fixtures.${Number(index) + offset}`);

function jsonOf(file: ReceivedFile): unknown {
  if (file.contentEncoding !== "utf8") return undefined;
  try {
    return parseJson(file.content);
  } catch {
    return undefined;
  }
}
