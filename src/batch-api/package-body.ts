import type { Context } from "hono";
import { MAX_BODY_BYTES } from "../http/app.js";
import { ApiError } from "../http/errors.js";
import { JSON_MEDIA_TYPE, jsonBody } from "../http/json-body.js";
import { TABLE_MEDIA_TYPES } from "../ingest/batches/encodings.js";
import { type Intake, jsonPackage, tablePackage } from "../ingest/batches/intake.js";
import { MAX_FILES, manifestPackage, type SentFile } from "../ingest/batches/manifest.js";

/**
 * The package a POST /batches carries, by its Content-Type: one JSON, CSV or XLSX body, or a
 * manifest and its files as multipart/form-data (field `manifest`, then each file in the
 * field `files` under its manifest path as its filename). Anything else is 415.
 */
export async function packageOf(c: Context): Promise<Intake> {
  const type = c.req.header("Content-Type") ?? "";
  if (JSON_MEDIA_TYPE.test(type)) {
    const body = await jsonBody(c);
    return jsonPackage(await c.req.text(), body);
  }
  const table = TABLE_MEDIA_TYPES.find((t) => type.toLowerCase().split(";")[0]?.trim() === t);
  if (table) return tablePackage(new Uint8Array(await c.req.arrayBuffer()), table);
  if (!/^multipart\/form-data/i.test(type))
    throw new ApiError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Send the package as application/json, ${TABLE_MEDIA_TYPES.join(" or ")}, or as multipart/form-data with a manifest and its files`,
    );
  const form = await formOf(c);
  const manifest = form.manifest;
  const manifestText =
    typeof manifest === "string" ? manifest : manifest instanceof File ? await manifest.text() : undefined;
  if (manifestText === undefined) throw invalid("manifest", "Send one manifest in the field `manifest`");
  const parts = [form.files ?? []].flat();
  if (parts.length > MAX_FILES) throw invalid("files", `At most ${MAX_FILES} files`);
  const files: SentFile[] = [];
  for (const part of parts) {
    if (!(part instanceof File))
      throw invalid("files", "The field `files` holds files, each named by its manifest path");
    if (part.size > MAX_BODY_BYTES)
      throw new ApiError("PAYLOAD_TOO_LARGE", `${JSON.stringify(part.name)} is over ${MAX_BODY_BYTES} bytes`);
    files.push({ name: part.name, bytes: new Uint8Array(await part.arrayBuffer()) });
  }
  for (const [field] of Object.entries(form))
    if (field !== "manifest" && field !== "files")
      throw invalid(field, "Only the fields `manifest` and `files` are read");
  return manifestPackage(manifestText, files);
}

async function formOf(c: Context): Promise<Record<string, string | File | (string | File)[]>> {
  try {
    return await c.req.parseBody({ all: true });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw invalid("body", "The body is not valid multipart/form-data");
  }
}

const invalid = (field: string, message: string) =>
  new ApiError(
    "VALIDATION_FAILED",
    "The package cannot be received; nothing was stored",
    [{ code: "INVALID_FIELD", message, field }],
    422,
  );
