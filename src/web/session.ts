import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { decodeJwt } from "jose";
import type { AppDependencies } from "../http/app.js";
import { authenticate, type Caller } from "../http/authentication.js";
import { ApiError } from "../http/errors.js";
import { InvalidToken } from "../identity/verifier.js";

/**
 * The signed-in pages' session: the identity provider's access token itself, in a cookie
 * the page's scripts cannot read (HttpOnly), sent only to /account pages (never to the
 * API, which takes bearer tokens alone) and only by same-site navigation (SameSite=Strict).
 * Each request verifies it as the API verifies a bearer token, so a session ends when its
 * token expires or its account is disabled; nothing about it is kept on the server.
 */
export const ACCOUNT_PATH = "/account";
const COOKIE = "cricket_session";

/**
 * Starts a session with a verified token. The cookie is Secure when the browser came over
 * HTTPS: to this process, or to a trusted proxy in front that says so (X-Forwarded-Proto).
 */
export function startSession(c: Context, token: string, trustedProxyHops = 0): void {
  const { exp } = decodeJwt(token);
  const overHttps =
    new URL(c.req.url).protocol === "https:" ||
    (trustedProxyHops > 0 && c.req.header("X-Forwarded-Proto")?.split(",")[0]?.trim() === "https");
  setCookie(c, COOKIE, token, {
    path: ACCOUNT_PATH,
    httpOnly: true,
    sameSite: "Strict",
    secure: overHttps,
    ...(exp ? { expires: new Date(exp * 1000) } : {}),
  });
}

export function endSession(c: Context): void {
  deleteCookie(c, COOKIE, { path: ACCOUNT_PATH });
}

/** The signed-in caller, or undefined (and the session ended) when there is none or its token no longer verifies. */
export async function sessionCaller(c: Context, deps: AppDependencies): Promise<Caller | undefined> {
  const token = getCookie(c, COOKIE);
  if (!token) return undefined;
  try {
    return await authenticate(deps, c, token);
  } catch (error) {
    if (!(error instanceof InvalidToken || (error instanceof ApiError && error.code === "FORBIDDEN"))) throw error;
    endSession(c);
    return undefined;
  }
}

/**
 * A form post from a page of this site. The cookie is SameSite=Strict already; the
 * browser's word on where the post came from is checked as well, so no other site's page
 * can post a signed-in form: `Sec-Fetch-Site` where the browser sends it (every current
 * one), else an `Origin` naming the Host it addressed (`null`, a sandboxed frame's, is
 * refused). The pages' `Referrer-Policy: no-referrer` makes Chromium send `Origin: null` on
 * their own posts, so `Origin` alone could not be relied on; Chromium sends Sec-Fetch-Site.
 */
export function fromThisSite(c: Context): boolean {
  const site = c.req.header("Sec-Fetch-Site");
  if (site !== undefined) return site === "same-origin";
  const origin = c.req.header("Origin");
  if (origin === undefined) return true;
  return origin !== "null" && URL.canParse(origin) && new URL(origin).host === c.req.header("Host");
}
