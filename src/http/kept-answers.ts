import type { MiddlewareHandler } from "hono";
import { memoryCache } from "../cache/memory.js";
import type { AppDependencies } from "./app.js";
import { notModified } from "./etag.js";

/**
 * Rendered answers of public reads, kept in this process while the read models they were
 * read from stand still: a repeat costs a lookup instead of its queries, validation and
 * serialisation. The key is the request's path and query with the watch's version of those
 * read models, so a change to any of them makes every answer read from it unreachable, and
 * a change elsewhere (a new account, a batch) leaves them be. Without a watch nothing is
 * known fresh, so nothing is kept. Held as `<kept headers as JSON>\n<body>`.
 */
export const keptAnswerStore = () => memoryCache({ maxEntries: 20_000, maxChars: MAX_CHARS });

const MAX_CHARS = 64 * 1024 * 1024;
/** An export-sized body would crowd out hundreds of pages (a byte is at most a character). */
const MAX_ANSWER_BYTES = MAX_CHARS / 64;
/** Versions make entries unreachable; the expiry only returns their memory sooner. */
const TTL_SECONDS = 300;

/** The headers an answer keeps; the rest (request id, rate limits, security) belong to each request. */
const KEPT = ["content-type", "etag", "cache-control", "content-disposition", "x-cache"];

/**
 * Middleware of a public read whose 200 answers are kept in `deps.answers` until the read
 * models of `projectors` change. Put after access checks (every request is still admitted
 * and counted) and before validation (a kept answer's request was valid).
 */
export function keptAnswers(deps: AppDependencies, projectors: readonly string[]): MiddlewareHandler {
  const { watch, answers } = deps;
  if (!watch || !answers) return (_c, next) => next();
  return async (c, next) => {
    const version = watch.version(projectors);
    if (version === undefined) return next();
    const url = c.req.url;
    const key = `${url.slice(url.indexOf("/", url.indexOf("//") + 2))}@${version}`;
    // Keeping answers only saves work: a store that fails is read around, never a failed read.
    const kept = await answers.get(key).catch((err) => {
      deps.logger.warn({ err, key }, "reading a kept answer failed; reading the read models");
      return undefined;
    });
    if (kept !== undefined) {
      const split = kept.indexOf("\n"); // JSON text never holds a raw newline
      const headers = JSON.parse(kept.slice(0, split)) as Record<string, string>;
      if (headers["x-cache"]) headers["x-cache"] = "HIT";
      return (headers.etag && notModified(c, headers.etag)) || c.body(kept.slice(split + 1), 200, headers);
    }
    await next();
    // Read while a projector committed: the answer may predate the change, so it is not kept.
    if (c.res.status !== 200 || watch.version(projectors) !== version) return;
    // Only what was read from the read models now: a hit of the versioned cache may be
    // older than the watch's version (its key follows fewer inputs), and a bypass of it is
    // an answer the route never caches (contributors).
    const inner = c.res.headers.get("x-cache");
    if (inner !== null && inner !== "MISS") return;
    const headers: Record<string, string> = {};
    for (const name of KEPT) {
      const value = c.res.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    const keep = keptOnTheWay((body) => {
      if (watch.version(projectors) !== version) return;
      // Not awaited: a slow store must not hold the end of the answer it keeps.
      void answers
        .set(key, `${JSON.stringify(headers)}\n${body}`, TTL_SECONDS)
        .catch((err) => deps.logger.warn({ err, key }, "keeping an answer failed; it was sent"));
    });
    c.res = new Response(c.res.body?.pipeThrough(keep) ?? "", { status: 200, headers: c.res.headers });
  };
}

/**
 * Passes a body through as it is sent, gathering a copy while it stays within
 * `MAX_ANSWER_BYTES`: a streamed export is never held whole, and a body that ends (it may
 * be broken off) is handed to `kept` once it is all sent.
 */
function keptOnTheWay(kept: (body: string) => void) {
  let chunks: Uint8Array[] | undefined = [];
  let bytes = 0;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      bytes += chunk.byteLength;
      if (bytes > MAX_ANSWER_BYTES) chunks = undefined;
      chunks?.push(chunk);
      controller.enqueue(chunk);
    },
    flush() {
      if (chunks) kept(Buffer.concat(chunks).toString("utf8"));
    },
  });
}
