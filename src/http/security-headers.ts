import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";

/**
 * The security headers of every answer (OWASP's REST and secure-headers guidance): Hono's
 * set (nosniff, no referrer, no framing, no cross-origin embedding), with a Content-Security-
 * Policy under which a JSON answer opened in a browser can load and run nothing. An HTML page
 * sets a policy of its own (`htmlPolicy`), which this keeps.
 */
export const securityHeaders = (trustedProxyHops: number): MiddlewareHandler => {
  const common = secureHeaders({
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    xFrameOptions: "DENY",
    // Sent only when the request reached us over TLS (below): on plain HTTP it means nothing.
    strictTransportSecurity: false,
    overwrite: false,
  });
  return async (c, next) => {
    await common(c, next);
    if (overTls(c.req.url, c.req.header("X-Forwarded-Proto"), trustedProxyHops))
      c.res.headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    // An answer to credentials is the caller's alone: no cache may keep it. A keyed read
    // carries its consumer's quota, so shared caches must not serve it to others, but its
    // ETag may still be revalidated by the client.
    if (c.req.header("Authorization")) c.res.headers.set("Cache-Control", "no-store");
    else if (c.req.header("X-API-Key") && !c.res.headers.get("Cache-Control")?.includes("private"))
      c.res.headers.set("Cache-Control", ["private", c.res.headers.get("Cache-Control") ?? "no-cache"].join(", "));
  };
};

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
