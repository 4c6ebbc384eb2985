import { getConnInfo } from "@hono/node-server/conninfo";
import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { HtmlEscapedString } from "hono/utils/html";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { storable } from "../../streams/shared.js";
import type { AppDependencies } from "../http/app.js";
import type { Caller } from "../http/authentication.js";
import { ApiError, asApiError } from "../http/errors.js";
import { refuseUnstorable, validationFailed } from "../http/validation.js";
import { htmlPage } from "./html.js";
import type { Outcome } from "./outcome.js";
import { SignInPage } from "./pages/sign-in.js";
import { fromThisSite, sessionCaller } from "./session.js";

/**
 * What every signed-in page shares (docs/web.md): the policy it runs under, reading a form
 * as the API reads a body, and the wrappers that make a page or a form need a session. A
 * form calls the command the API's operation calls; a refusal the API would answer is shown
 * on a page in its words, with its status and headers, and changes nothing.
 */

/**
 * Pages under a session run this site's scripts alone (the upload form's package check and
 * the validator it imports, which fetches the package schema); forms post only here.
 */
const ACCOUNT_POLICY =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Problems a refusal lists on the page; the rest are counted. */
const SHOWN_PROBLEMS = 50;

export const ANOTHER_SITE = "That form came from another site; nothing was done.";

/** A signed-in page as an answer: never cached, under the signed-in pages' policy. */
export const page = (
  c: Context,
  element: HtmlEscapedString | Promise<HtmlEscapedString>,
  status: ContentfulStatusCode = 200,
  headers: Record<string, string> = {},
) => htmlPage(c, element, ACCOUNT_POLICY, status, { "Cache-Control": "no-store", ...headers });

/** A form's fields: a body that cannot be read as a form is refused (400); any other is read as an empty one. */
export const formOf = (c: Context) => readForm(() => c.req.parseBody());

/** The values of a field a form may repeat (a multiple select's), none when it is absent. */
export async function valuesOf(c: Context, field: string): Promise<(string | File)[]> {
  const value = (await readForm(() => c.req.parseBody({ all: true })))[field];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

async function readForm<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch {
    throw new ApiError("VALIDATION_FAILED", "The form could not be read", [
      {
        code: "INVALID_FIELD",
        message: "Not a form (application/x-www-form-urlencoded or multipart/form-data)",
        field: "body",
      },
    ]);
  }
}

/** A form refused for one field, as the API refuses a body's (422), or with `status` where the API's is a header's. */
export const invalidField = (field: string, message: string, status: 400 | 422 = 422) =>
  new ApiError("VALIDATION_FAILED", "The form is invalid", [{ code: "INVALID_FIELD", message, field }], status);

/** A text field as the API would take one in a body: at most `max` characters, storable, else 422 naming it. */
export function textOf(value: unknown, field: string, max = 200): string {
  const text = typeof value === "string" ? value.trim() : "";
  if (text.length === 0 || text.length > max || !storable(text))
    throw invalidField(field, `1 to ${max} characters of text`);
  return text;
}

/** A path parameter naming something: text no id can hold names nothing (404), as the API refuses such a path. */
export function segmentOf(value: string | undefined, field: string): string {
  if (!value || !storable(value)) throw new ApiError("NOT_FOUND", `No such ${field}`);
  return value;
}

/** A form's number field as JSON would carry it, so the API's schema judges the number (and refuses what is none). */
export const numeric = (value: unknown) =>
  typeof value === "string" && JSON_NUMBER.test(value) && Number.isFinite(Number(value)) ? Number(value) : value;

/** A number as JSON writes one: no sign but minus, no hex, no bare point, no spaces. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** What a form says, read by the API operation's own body schema: refused as the API refuses that body (422). */
export function formBody<T>(schema: z.ZodType<T>, fields: unknown): T {
  refuseUnstorable("form", fields);
  const parsed = schema.safeParse(fields);
  if (!parsed.success) throw validationFailed("form", parsed.error);
  return parsed.data;
}

/** An ApiError as the page shows it: its message, then its details (the first 50, the rest counted). */
export const problemOf = (error: ApiError): NonNullable<Outcome["problem"]> => {
  const details = (error.details ?? []).map((d) => (d.field ? `${d.field}: ${d.message}` : d.message));
  return {
    message: error.message,
    details: details.slice(0, SHOWN_PROBLEMS),
    more: Math.max(0, details.length - SHOWN_PROBLEMS),
  };
};

/** A page answering a refusal, with the refusal's headers (Retry-After, RateLimit-*) but the API's challenge. */
export const withHeadersOf = (error: ApiError, res: Response) => {
  for (const [name, value] of Object.entries(error.headers()))
    if (name !== "WWW-Authenticate") res.headers.set(name, value);
  return res;
};

/** A page shown to a signed-in caller, with what the last form did (or why it was refused) and its status. */
export type SignedInPage = (
  c: Context,
  caller: Caller,
  outcome: Outcome,
  status?: ContentfulStatusCode,
) => Promise<Response>;

/** The notice a page's `done` parameter names (a fixed text: nothing of the query is shown). */
export const noticeOf = (c: Context, notices: Readonly<Record<string, string>>): Outcome => {
  const done = c.req.query("done");
  return done !== undefined && Object.hasOwn(notices, done) ? { notice: notices[done] } : {};
};

/** Names this machine answers to: what a browser on it addresses. */
const LOCAL_HOST = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d+)?$/;

/**
 * The request comes from a browser on this machine, addressing it as this machine: the only
 * one the development issuer signs in. The peer must be loopback (never a forwarded header),
 * no proxy may stand between (one on this host would make every remote request look local),
 * and the Host must be a local name (a page of another site whose name resolves to 127.0.0.1,
 * DNS rebinding, sends its own).
 */
export const fromThisMachine = (c: Context, deps: AppDependencies) => {
  const address = peerAddress(c);
  const proxied =
    (deps.trustedProxyHops ?? 0) > 0 ||
    ["Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Real-IP"].some((h) => c.req.header(h) !== undefined);
  return (
    (address === "::1" || /^(::ffff:)?127\./.test(address)) && !proxied && LOCAL_HOST.test(c.req.header("Host") ?? "")
  );
};

/** The connection's peer address; none outside a Node server (an app called directly). */
const peerAddress = (c: Context) => {
  try {
    return getConnInfo(c).remote.address ?? "";
  } catch {
    return "";
  }
};

/** The sign-in page, with why the last attempt failed. */
export const signIn = (c: Context, deps: AppDependencies, problem?: string, status: ContentfulStatusCode = 200) =>
  page(
    c,
    <SignInPage
      devIssuer={!!deps.identity?.devIssuer}
      password={!!deps.identity?.passwordSignIn}
      local={fromThisMachine(c, deps)}
      problem={problem}
    />,
    status,
  );

/** A page for a signed-in caller (the sign-in page for anyone else); a refusal is shown on `refusalPage`. */
export const viewed =
  (deps: AppDependencies, show: SignedInPage, notices: Readonly<Record<string, string>>, refusalPage: SignedInPage) =>
  async (c: Context): Promise<Response> => {
    const caller = await sessionCaller(c, deps);
    if (!caller) return signIn(c, deps);
    return refusedOn(refusalPage, c, caller, () => show(c, caller, noticeOf(c, notices)));
  };

/**
 * A form post by a signed-in user: from this site, with a session (else the sign-in page),
 * running `act`; a refusal the API would answer is shown on `refusalPage` instead, with the
 * refusal's status and headers.
 */
export const posted =
  (deps: AppDependencies, act: (c: Context, caller: Caller) => Promise<Response>, refusalPage: SignedInPage) =>
  async (c: Context): Promise<Response> => {
    if (!fromThisSite(c)) return signIn(c, deps, ANOTHER_SITE, 403);
    const caller = await sessionCaller(c, deps);
    if (!caller) return signIn(c, deps, "Your session has ended: sign in again.", 401);
    return refusedOn(refusalPage, c, caller, () => act(c, caller));
  };

async function refusedOn(refusalPage: SignedInPage, c: Context, caller: Caller, answer: () => Promise<Response>) {
  try {
    return await answer();
  } catch (error) {
    const refused = asApiError(error);
    if (!refused) throw error;
    return withHeadersOf(refused, await refusalPage(c, caller, { problem: problemOf(refused) }, refused.status));
  }
}
