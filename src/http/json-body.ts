import type { Context } from "hono";
import { ApiError } from "./errors.js";
import { unstorablePaths } from "./storable-text.js";
import { bodyLocation, unstorableInput } from "./validation.js";

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The parsed JSON body of a route that validates it itself (to report every problem in one
 * pass with what the ledger says), with the same errors the validated routes give.
 */
export async function jsonBody(c: Context): Promise<unknown> {
  if (!JSON_MEDIA_TYPE.test(c.req.header("Content-Type") ?? ""))
    throw new ApiError("INVALID_JSON", "The request body must be JSON, sent as Content-Type: application/json");
  let body: unknown;
  try {
    body = await c.req.json();
  } catch (error) {
    // Anything else (the body limit, a dropped connection) is not the client's JSON.
    if (error instanceof SyntaxError) throw new ApiError("INVALID_JSON", "The request body is not valid JSON");
    throw error;
  }
  refuseUnstorableBody(body);
  return body;
}

/**
 * Text the database cannot store is refused before any check looks anything up with it.
 * It is reported on its own: the rest of the body is not judged until it is mended.
 */
export function refuseUnstorableBody(body: unknown, field: (path: string) => string = (path) => path): void {
  const paths = unstorablePaths(body);
  if (paths.length === 0) return;
  throw unstorableInput(
    paths.map(bodyLocation).map((at) => (at.eventIndex === undefined ? at : { ...at, field: field(at.field) })),
  );
}
