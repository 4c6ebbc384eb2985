import type { Context } from "hono";
import { ApiError } from "./errors.js";
import { refuseUnstorable } from "./validation.js";

export const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** A JSON operation's answer to a body sent as anything but JSON. */
export const notJson = () =>
  new ApiError("UNSUPPORTED_MEDIA_TYPE", "The request body must be JSON, sent as Content-Type: application/json");

/**
 * The parsed JSON body of a route that validates it itself (to report every problem in one
 * pass with what the ledger says), with the same errors the validated routes give.
 */
export async function jsonBody(c: Context): Promise<unknown> {
  if (!JSON_MEDIA_TYPE.test(c.req.header("Content-Type") ?? "")) throw notJson();
  let body: unknown;
  try {
    body = await c.req.json();
  } catch (error) {
    // Anything else (the body limit, a dropped connection) is not the client's JSON.
    if (error instanceof SyntaxError) throw new ApiError("INVALID_JSON", "The request body is not valid JSON");
    throw error;
  }
  refuseUnstorable("json", body);
  return body;
}
