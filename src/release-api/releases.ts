import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { anonymousAccess } from "../http/access.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { byteRange, httpDate, ifRangeHolds } from "../http/byte-ranges.js";
import { storableTimestamp } from "../http/dates.js";
import { ApiError, errorEnvelopeSchema, errorResponses, notFound } from "../http/errors.js";
import { matchesIfNoneMatch } from "../http/etag.js";
import type { Logger } from "../http/logging.js";
import { collectionSchema, cursorParam, keysetPage, limitParam } from "../http/pagination.js";
import { readModels, UNKNOWN_PARAMETERS } from "../read-api/params.js";
import { ArtifactCorrupt, artifactBytes, publishedArtifact } from "../releases/artifact-store.js";
import { findRelease, listReleases, type ReleaseKey } from "../releases/queries.js";
import { RELEASES_PATH, releaseSchema, releaseToApi } from "./schemas.js";

/**
 * The public release reads (no credential; the anonymous read limits apply per client): the
 * list, one release's metadata, and its artefact, served from the chunk store with every
 * byte checked before it leaves (docs/releases.md, "Downloads").
 */

const TAGS = ["Dataset releases"];
const versionParam = z.object({
  version: z.string().openapi({
    param: { name: "version", in: "path" },
    description: "The release's version, `MAJOR.MINOR.PATCH`; any other text is a release that does not exist (404).",
    example: "2026.11.0",
  }),
});

const listRoute = createRoute({
  method: "get",
  path: RELEASES_PATH,
  tags: TAGS,
  operationId: "listDatasetReleases",
  summary: "Published releases, newest first",
  description: `Every published release, newest first (by publication time, then version), with its metadata. Releases are immutable: a page once seen never changes, only new releases come before it. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  security: [],
  request: { query: z.object({ limit: limitParam, cursor: cursorParam }) },
  responses: {
    200: {
      description: "A page of releases",
      content: {
        "application/json": {
          schema: collectionSchema(releaseSchema, "DatasetReleasePage", "Releases, newest first."),
        },
      },
    },
    ...errorResponses(400, 429, 503),
  },
});

const detailRoute = createRoute({
  method: "get",
  path: `${RELEASES_PATH}/{version}`,
  tags: TAGS,
  operationId: "getDatasetRelease",
  summary: "One release's metadata",
  description:
    "What the release holds (`scope`), when it was asked for and published, the event-log position it was cut at, the artefact's schema version, byte length and SHA-256. 404 for a version never published (also while its job runs).",
  ...implemented,
  security: [],
  request: { params: versionParam },
  responses: {
    200: {
      description: "The release",
      content: { "application/json": { schema: z.object({ data: releaseSchema }).openapi("DatasetReleaseResponse") } },
    },
    ...errorResponses(404, 429, 503),
  },
});

const header = (description: string, example: string) => ({
  description,
  schema: { type: "string" as const, example },
});

const validatorHeaders = {
  ETag: header('`"sha256:<hex>"`.', '"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"'),
  "Last-Modified": header("When the release was published.", "Fri, 27 Nov 2026 05:00:00 GMT"),
  "Cache-Control": header("Immutable.", "public, max-age=31536000, immutable"),
  "Accept-Ranges": header("`bytes`.", "bytes"),
};
const attachment = {
  "Content-Disposition": header(
    "An attachment named after the version.",
    'attachment; filename="cricket-dataset-2026.11.0.json"',
  ),
};

const artifactRoute = createRoute({
  method: "get",
  path: `${RELEASES_PATH}/{version}/artifact.json`,
  tags: TAGS,
  operationId: "downloadDatasetReleaseArtifact",
  summary: "The release's artefact: the exact bytes its checksum covers",
  description:
    'The artefact (RFC 8785 canonical JSON, schema in docs/releases.md) as an attachment. Its ETag is `"sha256:<hex>"`, the checksum in the metadata, and never changes. `If-None-Match` (or `If-Modified-Since`) answers 304; one `Range: bytes=…` answers 206 with that part (`If-Range` with the ETag, or exactly the Last-Modified date, makes it conditional; a suffix longer than the artefact is the whole); a range starting past the end is 416 with `Content-Range: bytes */<length>`; several ranges, another unit or an unreadable range are answered with the whole artefact. HEAD answers the headers without reading a byte. Every chunk is checked against its stored SHA-256 before it is sent, and a whole download against the release\'s checksum before its last bytes: a failed check before the first byte is 503 ARTIFACT_UNAVAILABLE, after it the connection is cut, so a client never holds a complete body with other bytes.',
  ...implemented,
  security: [],
  request: { params: versionParam },
  responses: {
    200: {
      description: "The whole artefact",
      headers: { ...validatorHeaders, ...attachment },
      content: { "application/json": { schema: z.object({}).passthrough().openapi({ description: "The artefact." }) } },
    },
    206: {
      description: "The range asked for",
      headers: {
        ...validatorHeaders,
        ...attachment,
        "Content-Range": header("`bytes <first>-<last>/<length>`.", "bytes 0-1048575/71234567"),
      },
      content: { "application/json": { schema: z.string().openapi({ format: "binary" }) } },
    },
    304: { description: "The client's copy is the artefact (it never changes)", headers: validatorHeaders },
    416: {
      description: "The range starts beyond the end (RANGE_NOT_SATISFIABLE)",
      headers: { "Content-Range": header("`bytes */<length>`.", "bytes */71234567") },
      content: { "application/json": { schema: errorEnvelopeSchema } },
    },
    ...errorResponses(404, 429, 503),
  },
});

const CACHE_FOREVER = "public, max-age=31536000, immutable";
const releaseKey = z.tuple([storableTimestamp(), z.string().max(40)]);

export function registerDatasetReleases(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  const access = { middleware: [anonymousAccess(deps)] };

  app.openapi({ ...listRoute, ...access }, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const page = await keysetPage({
      scope: { operation: "listDatasetReleases", inputs: {} },
      limit,
      cursor,
      key: releaseKey,
      fetch: async (after, take) =>
        (await listReleases(sql(), { after, take })).map((release) => ({
          item: releaseToApi(release),
          key: [release.createdAt.toISOString(), release.version] as ReleaseKey,
        })),
    });
    return c.json(page, 200);
  });

  app.openapi({ ...detailRoute, ...access }, async (c) => {
    const release = await findRelease(sql(), c.req.valid("param").version);
    if (!release) throw notFound("dataset release");
    return c.json({ data: releaseToApi(release) }, 200);
  });

  app.openapi({ ...artifactRoute, ...access }, async (c) => {
    const { version } = c.req.valid("param");
    const release = await findRelease(sql(), version);
    if (!release) throw notFound("dataset release");
    const artifact = await unavailableIfCorrupt(publishedArtifact(sql(), release), deps.logger);
    const etag = `"sha256:${artifact.sha256}"`;
    const lastModified = release.createdAt.toUTCString();
    const validators = {
      ETag: etag,
      "Last-Modified": lastModified,
      "Cache-Control": CACHE_FOREVER,
      "Accept-Ranges": "bytes",
    };
    if (notModified(c, etag, release.createdAt)) return c.body(null, 304, validators);

    const range = requestedRange(c, artifact.byteLength, etag, lastModified);
    const [first, last] = range ?? [0, artifact.byteLength - 1];
    const headers = {
      ...validators,
      "Content-Type": "application/json",
      "Content-Disposition": `attachment; filename="cricket-dataset-${version}.json"`,
      "Content-Length": String(last - first + 1),
      ...(range ? { "Content-Range": `bytes ${first}-${last}/${artifact.byteLength}` } : {}),
    };
    const status = range ? 206 : 200;
    // HEAD is answered by this handler too: its headers, without reading a byte.
    if (c.req.method === "HEAD") return c.body(null, status, headers);
    return c.body(await checkedStream(artifactBytes(sql(), artifact, first, last), deps.logger), status, headers);
  });
}

/** RFC 9110 §13.2.2: If-None-Match decides when present; otherwise If-Modified-Since. */
function notModified(c: Context, etag: string, modified: Date): boolean {
  const ifNoneMatch = c.req.header("If-None-Match");
  if (ifNoneMatch !== undefined) return matchesIfNoneMatch(ifNoneMatch, etag);
  const since = httpDate(c.req.header("If-Modified-Since"));
  return since !== undefined && Math.floor(modified.getTime() / 1000) * 1000 <= since;
}

/** The one byte range to serve, or undefined for the whole; a range starting past the end is 416. */
function requestedRange(c: Context, length: number, etag: string, lastModified: string) {
  const header = c.req.header("Range");
  if (header === undefined || !ifRangeHolds(c.req.header("If-Range"), etag, lastModified)) return undefined;
  const range = byteRange(header, length);
  if (range === "unsatisfiable")
    throw new ApiError(
      "RANGE_NOT_SATISFIABLE",
      `The artefact is ${length} bytes long; the range asked for holds none of them`,
    ).withHeaders({ "Content-Range": `bytes */${length}` });
  return range;
}

/**
 * The bytes as a response body, the first chunk read (and checked) before answering: a
 * corrupt artefact found then is a 503; found later, the stream errors and the connection
 * is cut, short of its Content-Length.
 */
async function checkedStream(chunks: AsyncGenerator<Uint8Array>, logger: Logger): Promise<ReadableStream<Uint8Array>> {
  const first = await unavailableIfCorrupt(chunks.next(), logger);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(first.value);
    },
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        logger.error({ err: error }, "a release artefact download stopped part-way");
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

/** What `read` gives, or, for an artefact that failed its check, a 503 logged as the error it is. */
async function unavailableIfCorrupt<T>(read: Promise<T>, logger: Logger): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (!(error instanceof ArtifactCorrupt)) throw error;
    logger.error({ err: error }, "a release artefact failed its integrity check");
    throw new ApiError(
      "ARTIFACT_UNAVAILABLE",
      "The artefact failed its integrity check and is not served; operators are alerted",
    );
  }
}
