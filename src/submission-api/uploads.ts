import type { Context } from "hono";
import { storable } from "../../streams/shared.js";
import { JsonTooDeep, parseJson } from "../bounded-json.js";
import type { Upload } from "../commands/submissions/handlers.js";
import { JSON_SOURCE, type SubmissionSource, sha256 } from "../commands/submissions/submit.js";
import { MAX_BODY_BYTES } from "../http/app.js";
import { ApiError } from "../http/errors.js";
import { UNSTORABLE_MESSAGE } from "../http/storable-text.js";
import { refuseUnstorable } from "../http/validation.js";
import { csvField, readCsvSubmission } from "../submissions/csv.js";

/** The two kinds of file a submission may be uploaded as: extension, then the media type it must be sent as. */
const KINDS = { ".json": "application/json", ".csv": "text/csv" } as const;
type MediaType = (typeof KINDS)[keyof typeof KINDS];

export type UploadedSubmission = {
  /** The submission the file holds, for the one-pass checks. */
  body: unknown;
  /**
   * Problems only the file format shows (a CSV cell that is not JSON, a row of another
   * fixture), and how it names an event's fields (a CSV's columns).
   */
  source: SubmissionSource;
  /** What is kept of the file itself. */
  upload: Upload;
};

const invalid = (message: string, field = "file") =>
  new ApiError(
    "VALIDATION_FAILED",
    "The upload is invalid; nothing was stored",
    [{ code: "INVALID_FIELD", message, field }],
    422,
  );

/** Reads the multipart field `file` and what it holds; refuses what cannot be read at all. */
export async function readUpload(c: Context): Promise<UploadedSubmission> {
  const file = await fileField(c);
  const filename = file.name.trim();
  if (filename.length === 0 || filename.length > 255) throw invalid("The file needs a name of 1 to 255 characters");
  if (!storable(filename)) throw invalid(`The file's name: ${UNSTORABLE_MESSAGE}`);
  const extension = /\.[^.]*$/.exec(filename.toLowerCase())?.[0] ?? "";
  const mediaType = KINDS[extension as keyof typeof KINDS] as MediaType | undefined;
  if (!mediaType) throw invalid("The file must be a .json or a .csv file");
  const sentAs = file.type.split(";")[0]?.trim().toLowerCase();
  if (sentAs !== mediaType)
    throw invalid(`A ${extension} file must be sent as ${mediaType}, not ${sentAs || "no media type"}`);
  if (file.size > MAX_BODY_BYTES) throw new ApiError("PAYLOAD_TOO_LARGE", `The file is over ${MAX_BODY_BYTES} bytes`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kept = (): Upload => ({ filename, mediaType, byteLength: bytes.byteLength, sha256: sha256(bytes) });
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw invalid("The file is not UTF-8 text");
  }
  if (mediaType === "text/csv") {
    const reading = readCsvSubmission(text);
    // Without rows there is nothing more to check: the validator would only add that the
    // fixture and schema version (cells of rows) are missing and repeat that events are.
    if (!reading.body || reading.body.events.length === 0)
      throw new ApiError("VALIDATION_FAILED", "The upload is invalid; nothing was stored", reading.details, 422);
    refuseUnstorable("json", reading.body, csvField);
    return { body: reading.body, source: { problems: reading.details, field: csvField }, upload: kept() };
  }
  let body: unknown;
  try {
    body = parseJson(text);
  } catch (error) {
    throw invalid(
      error instanceof JsonTooDeep ? `The file is not accepted: ${error.message}` : "The file is not valid JSON",
    );
  }
  refuseUnstorable("json", body);
  return { body, source: JSON_SOURCE, upload: kept() };
}

async function fileField(c: Context): Promise<File> {
  if (!/^multipart\/form-data/i.test(c.req.header("Content-Type") ?? ""))
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Send the file as multipart/form-data in the field `file`");
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody({ all: true });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw invalid("The body is not valid multipart/form-data");
  }
  const file = form.file;
  if (Array.isArray(file)) throw invalid("Send exactly one file");
  if (!(file instanceof File)) throw invalid("The multipart field `file` must hold a file");
  return file;
}
