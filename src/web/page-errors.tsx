import type { Context, MiddlewareHandler } from "hono";
import { accepts } from "hono/accepts";
import { PAGE_POLICY } from "./layout.js";
import { UnavailablePage } from "./pages/unavailable.js";

/**
 * Pages answer their refusals and failures as pages. The app answers every error in the
 * API's JSON envelope (its `onError`); for a page, that answer is turned into one of the
 * same status and headers (Retry-After, RateLimit-*) saying the same in HTML: a reader who
 * hits the anonymous limit, or comes while the database is away, gets a page, not JSON.
 * `/` answers JSON to clients that ask for it, and keeps its envelope for them.
 */
export const pageErrors: MiddlewareHandler = async (c, next) => {
  await next();
  if (!c.error || !wantsPage(c) || c.res.headers.get("Content-Type")?.startsWith("text/html")) return;
  const message = await c.res
    .clone()
    .json()
    .then(
      (body) => (body as { error: { message: string } }).error.message,
      () => "The page cannot be served just now.",
    );
  const headers = new Headers(c.res.headers);
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Content-Security-Policy", PAGE_POLICY);
  const page = `<!DOCTYPE html>${await (<UnavailablePage status={c.res.status} message={message} />)}`;
  c.res = new Response(page, { status: c.res.status, headers });
};

const wantsPage = (c: Context) =>
  c.req.path !== "/" ||
  accepts(c, { header: "Accept", supports: ["application/json", "text/html"], default: "application/json" }) ===
    "text/html";
