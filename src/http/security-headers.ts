import { createHash } from "node:crypto";
import type { HttpBindings } from "@hono/node-server";
import type { Context, MiddlewareHandler, Next } from "hono";

/**
 * The security headers of every answer (OWASP's REST and secure-headers guidance, the set
 * Hono's `secureHeaders` sends): nosniff, no referrer, no framing, no cross-origin
 * embedding, and a Content-Security-Policy under which a JSON answer opened in a browser can
 * load and run nothing. An HTML page sets a policy of its own (`htmlPolicy`), which wins.
 */
const SECURITY_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Origin-Agent-Cluster": "?1",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "X-DNS-Prefetch-Control": "off",
  "X-Download-Options": "noopen",
  "X-Frame-Options": "DENY",
  "X-Permitted-Cross-Domain-Policies": "none",
  "X-XSS-Protection": "0",
};

export const securityHeaders =
  (trustedProxyHops: number): MiddlewareHandler =>
  async (c, next) => {
    await withHeaders(c, next, SECURITY_HEADERS);
    if (overTls(c.req.url, c.req.header("X-Forwarded-Proto"), trustedProxyHops))
      c.res.headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    // An answer to credentials is the caller's alone: no cache may keep it. A keyed read
    // carries its consumer's quota, so shared caches must not serve it to others, but its
    // ETag may still be revalidated by the client.
    if (c.req.header("Authorization")) c.res.headers.set("Cache-Control", "no-store");
    else if (c.req.header("X-API-Key") && !c.res.headers.get("Cache-Control")?.includes("private"))
      c.res.headers.set("Cache-Control", ["private", c.res.headers.get("Cache-Control") ?? "no-cache"].join(", "));
  };

/**
 * Runs the rest of the request with `headers` on its answer, unless the answer sets one of
 * them itself. Behind Node they go on Node's own response before the route answers, and the
 * answer's headers, written with it, take precedence: the web Response is never touched, as
 * changing its headers makes the adapter build them as a Headers object, which cost /health
 * about 60 % of its throughput. Answered without Node (`app.request`: tests, the CLI), they
 * are added to the answer afterwards.
 */
export async function withHeaders(c: Context, next: Next, headers: Readonly<Record<string, string>>) {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  if (outgoing) {
    for (const name in headers) outgoing.setHeader(name, headers[name] as string);
    return next();
  }
  await next();
  for (const name in headers) if (!c.res.headers.has(name)) c.res.headers.set(name, headers[name] as string);
}

/** Whether TLS carried the request: to this server, or, behind trusted proxies, to the first of them. */
function overTls(url: string, forwardedProto: string | undefined, trustedProxyHops: number) {
  if (url.startsWith("https:")) return true;
  if (trustedProxyHops === 0 || !forwardedProto) return false;
  return forwardedProto.split(",")[0]?.trim().toLowerCase() === "https";
}

/**
 * The policy of an HTML page of ours: its own origin's scripts, styles and images (and
 * inline styles, which Swagger UI sets), and each inline script by its hash, so an injected
 * one cannot run.
 */
export function htmlPolicy(html: string): string {
  const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, script]) =>
      `'sha256-${createHash("sha256")
        .update(script ?? "")
        .digest("base64")}'`,
  );
  return [
    "default-src 'none'",
    `script-src 'self' ${inline.join(" ")}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}
