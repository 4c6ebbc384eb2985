import { z } from "zod";
import { type ReceivedFile, sha256Hex } from "../../../streams/batch.js";
import { JsonTooDeep, parseJson } from "../../bounded-json.js";
import { PackageUnreadable } from "../../commands/batches/errors.js";
import type { Problem } from "../../commands/errors.js";
import { zodDetails } from "../../commands/problems.js";
import { unstorablePaths } from "../../http/storable-text.js";
import { isTable, receivedFile, TABLE_MEDIA_TYPES, tablesOf } from "./encodings.js";
import { type Intake, readHead } from "./intake.js";

/**
 * A package sent as `multipart/form-data`: a manifest (the package's head and its files, each
 * with its relative path, media type and SHA-256) and the files themselves (docs/batches.md,
 * "Multi-file packages"). Every rule of the manifest is checked before anything is stored.
 */

/** The media types a package's file may have. */
const PART_MEDIA_TYPES = ["application/json", ...TABLE_MEDIA_TYPES] as const;
/** The manifest's own name among the stored files: first, before the files it lists. */
export const MANIFEST_NAME = "manifest.json";
export const MAX_FILES = 20;

const RELATIVE_PATH = /^(?!\/)(?![a-zA-Z]:)(?!.*\\)(?!(?:.*\/)?\.\.?(?:\/|$))(?!.*\/\/)[^\0]{1,255}$/;

const manifestSchema = z.looseObject({
  files: z
    .array(
      z.strictObject({
        path: z
          .string()
          .regex(
            RELATIVE_PATH,
            "A relative path: no leading /, drive or backslash, no . or .. segment, no empty segment",
          ),
        mediaType: z.string(),
        sha256: sha256Hex,
      }),
    )
    .min(2, "A manifest lists at least two files")
    .max(MAX_FILES, `At most ${MAX_FILES} files`),
});

/** A file part as sent: the name it came under and its bytes (the manifest says its media type). */
export type SentFile = { name: string; bytes: Uint8Array };

/**
 * The package a manifest and its files make; throws PackageUnreadable naming every problem
 * of the manifest and of the files against it.
 */
export async function manifestPackage(manifestText: string, sent: readonly SentFile[]): Promise<Intake> {
  let manifest: unknown;
  try {
    manifest = parseJson(manifestText);
  } catch (error) {
    throw PackageUnreadable.at(
      "manifest",
      error instanceof JsonTooDeep ? error.message : "The manifest is not valid JSON",
    );
  }
  const [unstorable] = unstorablePaths(manifest);
  if (unstorable) throw PackageUnreadable.at(["manifest", ...unstorable].join("."), "Holds text that cannot be stored");
  const head = readHead(manifest);
  const parsed = manifestSchema.safeParse(manifest);
  if (!parsed.success)
    throw new PackageUnreadable(zodDetails(parsed.error, (path) => ({ field: ["manifest", ...path].join(".") })));
  const listed = parsed.data.files;
  const problems: Problem[] = [];
  const byName = new Map<string, SentFile[]>();
  for (const file of sent) byName.set(file.name, [...(byName.get(file.name) ?? []), file]);
  const files: ReceivedFile[] = [];
  const seen = new Set<string>();
  for (const [i, entry] of listed.entries()) {
    const at = (field: string) => `manifest.files.${i}.${field}`;
    if (seen.has(entry.path))
      problems.push({
        code: "DUPLICATE_FILE_PATH",
        message: "Another file of the manifest has this path",
        field: at("path"),
      });
    seen.add(entry.path);
    const [file, ...more] = byName.get(entry.path) ?? [];
    if (!file) {
      problems.push({ code: "FILE_MISSING", message: "No file of the request has this path", field: at("path") });
      continue;
    }
    if (more.length > 0)
      problems.push({ code: "DUPLICATE_FILE_PATH", message: "Sent more than once", field: at("path") });
    const stored = receivedFile(entry.path, entry.mediaType, file.bytes);
    if (stored.sha256 !== entry.sha256)
      problems.push({
        code: "CHECKSUM_MISMATCH",
        message: `The file's SHA-256 is ${stored.sha256}`,
        field: at("sha256"),
      });
    problems.push(...(await fileProblems(entry.mediaType, file.bytes, at)));
    files.push(stored);
  }
  for (const name of byName.keys())
    if (!seen.has(name))
      problems.push({
        code: "UNEXPECTED_FILE",
        message: `The manifest does not list ${JSON.stringify(name)}`,
        field: "files",
      });
  if (problems.length > 0) throw new PackageUnreadable(problems);
  // The manifest names every file's SHA-256, so its own binds the whole package.
  const stored = receivedFile(MANIFEST_NAME, "application/json", new TextEncoder().encode(manifestText));
  return { head, files: [stored, ...files], checksum: stored.sha256 };
}

/** What stops a file being read as part of a package: of its media type, and of its content as that type. */
async function fileProblems(mediaType: string, bytes: Uint8Array, at: (field: string) => string): Promise<Problem[]> {
  if (isTable(mediaType))
    try {
      await tablesOf(bytes, mediaType, at("path"));
      return [];
    } catch (error) {
      if (error instanceof PackageUnreadable) return error.details ?? [];
      throw error;
    }
  if (mediaType !== "application/json")
    return [
      {
        code: "UNSUPPORTED_FILE_TYPE",
        message: `A package file is one of ${PART_MEDIA_TYPES.join(", ")}`,
        field: at("mediaType"),
      },
    ];
  const text = utf8(bytes);
  const unfit = text === undefined ? "is not UTF-8 text" : unreadableJson(text);
  return unfit ? [{ code: "INVALID_FIELD", message: `The file ${unfit}`, field: at("path") }] : [];
}

/** Why a package file's text cannot be read as part of a package, or nothing. */
function unreadableJson(text: string): string | undefined {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    return error instanceof JsonTooDeep ? `is not accepted: ${error.message}` : "is not valid JSON";
  }
  if (!Array.isArray((value as { fixtures?: unknown } | null)?.fixtures)) return 'is not an object {"fixtures": [...]}';
  const [unstorable] = unstorablePaths(value);
  return unstorable ? `holds text that cannot be stored at ${unstorable.join(".") || "its top"}` : undefined;
}

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
