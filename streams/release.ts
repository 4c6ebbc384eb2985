import { z } from "zod";
import { defineEvent, EventCatalogue, type EventOf } from "./catalogue.js";
import { streamId } from "./envelope.js";

/**
 * A dataset release: one stream per version, holding its generation jobs (requested,
 * started, progressing, failed) and, once, its publication with the artefact's checksum
 * (docs/releases.md).
 */
export const releaseStream = (version: string) => streamId("release", version);

/**
 * `MAJOR.MINOR.PATCH`, each a number from 0 to 999999 without leading zeros: semantic
 * versioning's core, without pre-release or build parts (a release is never provisional).
 */
export const RELEASE_VERSION_PATTERN = "^(0|[1-9][0-9]{0,5})\\.(0|[1-9][0-9]{0,5})\\.(0|[1-9][0-9]{0,5})$";
export const releaseVersion = z.string().regex(new RegExp(RELEASE_VERSION_PATTERN), "expected MAJOR.MINOR.PATCH");

/** The artefact's schema (docs/releases.md): a new one changes what the bytes hold. */
export const ARTIFACT_SCHEMA_VERSION = "1.0";

const count = z.number().int().min(0);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
/** An event-log position as `commit:index` (src/event-store/port.ts). */
const position = z.string().regex(/^\d+:\d+$/);

/** A job's release: its version, the artefact's schema, and where in the log it is cut. */
const cut = {
  jobId: z.uuid(),
  version: releaseVersion,
  /** Where the log stood when the release was asked for: the release holds exactly what precedes it. */
  position,
  schemaVersion: z.literal(ARTIFACT_SCHEMA_VERSION),
};

export const DatasetReleaseRequested = defineEvent({
  type: "DatasetReleaseRequested",
  category: "release",
  version: 1,
  schema: z.strictObject(cut),
});

/** A generator began (or, after a restart, began again) writing the artefact from its first byte. */
export const DatasetReleaseGenerationStarted = defineEvent({
  type: "DatasetReleaseGenerationStarted",
  category: "release",
  version: 1,
  schema: z.strictObject({ jobId: z.uuid(), attempt: z.number().int().positive(), itemsTotal: count }),
});

export const DatasetReleaseProgressed = defineEvent({
  type: "DatasetReleaseProgressed",
  category: "release",
  version: 1,
  schema: z.strictObject({ jobId: z.uuid(), attempt: z.number().int().positive(), itemsDone: count }),
});

const seasonScope = z.strictObject({ seasonId: z.string(), label: z.string(), fixtures: count, deliveries: count });

/** What a release holds: every competition with its seasons, and how many of each kind of record. */
export const releaseScopeSchema = z.strictObject({
  counts: z.strictObject({
    competitions: count,
    seasons: count,
    teams: count,
    venues: count,
    participants: count,
    fixtures: count,
    innings: count,
    deliveries: count,
  }),
  competitions: z.array(z.strictObject({ competitionId: z.string(), name: z.string(), seasons: z.array(seasonScope) })),
});
export type ReleaseScope = z.infer<typeof releaseScopeSchema>;

/** The artefact is stored and can be downloaded: the release exists, immutable, from here on. */
export const DatasetReleasePublished = defineEvent({
  type: "DatasetReleasePublished",
  category: "release",
  version: 1,
  schema: z.strictObject({
    ...cut,
    byteLength: count,
    sha256,
    /** SHA-256 of the artefact's chunks' digests in order (src/releases/artifact-store.ts). */
    chunksSha256: sha256,
    scope: releaseScopeSchema,
  }),
});

/** The job stopped without a release; asking for the version again starts a new job. */
export const DatasetReleaseFailed = defineEvent({
  type: "DatasetReleaseFailed",
  category: "release",
  version: 1,
  schema: z.strictObject({ jobId: z.uuid(), reason: z.string().min(1).max(1000) }),
});

export const releaseEvents = [
  DatasetReleaseRequested,
  DatasetReleaseGenerationStarted,
  DatasetReleaseProgressed,
  DatasetReleasePublished,
  DatasetReleaseFailed,
] as const;
export type ReleaseEvent = EventOf<(typeof releaseEvents)[number]>;
export const releaseCatalogue = new EventCatalogue(releaseEvents);
