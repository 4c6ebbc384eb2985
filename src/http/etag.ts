import { createHash } from "node:crypto";
import type { Context } from "hono";

/**
 * Version stamps of fixture-scoped responses.
 *
 * The ETag is `"<fixture version>-<digest>"`, e.g. `"57-3q2-7wEJ6LvE4M9r"`: the fixture's
 * current version (its stream revision), then 16 base64url characters of the SHA-256 of the
 * exact response bytes. The version makes every accepted change to the fixture a new ETag;
 * the digest covers what is not in the fixture's own stream (reference names, a season's
 * display name) and the query, so a 304 is only ever sent for the bytes the client holds.
 * An export, tagged before its body is read, digests what the body is made of instead (its
 * format, filters, deliveries in their revisions and the names shown). Strong validator:
 * equal ETags mean byte-identical bodies.
 */
export const versionedEtag = (version: number, body: string) =>
  `"${version}-${createHash("sha256").update(body).digest("base64url").slice(0, 16)}"`;

/** RFC 9110 If-None-Match: `*`, or any listed tag equal to ours (weak comparison). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag);
}

const headersFor = (etag: string) => ({ ETag: etag, "Cache-Control": "no-cache" });

/** 304 without a body when the client's If-None-Match holds `etag`; undefined otherwise. */
export const notModified = (c: Context, etag: string) =>
  matchesIfNoneMatch(c.req.header("If-None-Match"), etag) ? c.body(null, 304, headersFor(etag)) : undefined;

/** 304 without a body when the client's If-None-Match still holds; the JSON body otherwise. */
export function versionedJson<T extends object>(
  c: Context,
  version: number,
  body: T,
  headers: Record<string, string> = {},
) {
  const json = JSON.stringify(body);
  return taggedFile(c, versionedEtag(version, json), json, { "Content-Type": "application/json", ...headers });
}

/** The same for a file body (CSV, JSON exports) with its own headers. */
export const versionedFile = (c: Context, version: number, body: string, headers: Record<string, string>) =>
  taggedFile(c, versionedEtag(version, body), body, headers);

/** The same with the body's ETag already known (kept beside a cached body, so a hit does not hash it again). */
export function taggedFile(
  c: Context,
  etag: string,
  body: string | ReadableStream<Uint8Array>,
  headers: Record<string, string>,
) {
  return notModified(c, etag) ?? c.body(body, 200, { ...headers, ...headersFor(etag) });
}
