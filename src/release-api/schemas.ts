import { z } from "@hono/zod-openapi";
import { RELEASE_VERSION_PATTERN } from "../../streams/release.js";
import { timestampField as timestamp } from "../http/dates.js";
import type { Release, ReleaseJobView } from "../releases/queries.js";

export const RELEASES_PATH = "/api/v1/dataset-releases";
export const JOBS_PATH = "/api/v1/admin/dataset-release-jobs";

export const artifactPath = (version: string) => `${RELEASES_PATH}/${version}/artifact.json`;

export const versionField = z
  .string()
  .regex(new RegExp(RELEASE_VERSION_PATTERN), "Expected MAJOR.MINOR.PATCH, e.g. 1.0.0")
  .openapi({
    description:
      "`MAJOR.MINOR.PATCH`: three whole numbers from 0 to 999999 without leading zeros (semantic versioning's core, no pre-release or build part).",
    example: "2026.11.0",
  });

const count = (description: string, example: number) => z.number().int().min(0).openapi({ description, example });

/** The scope as the API documents it; `releaseScopeSchema` (streams/release.ts) is the fact it is read from. */
const scopeSchema = z
  .object({
    counts: z
      .object({
        competitions: count("Competitions.", 3),
        seasons: count("Seasons.", 21),
        teams: count("Teams.", 40),
        venues: count("Venues.", 60),
        participants: count("Players.", 800),
        fixtures: count("Fixtures.", 1169),
        innings: count("Innings, super overs included.", 2350),
        deliveries: count("Deliveries, each as its current revision.", 278_000),
      })
      .openapi({ description: "How many records of each kind the artefact holds." }),
    competitions: z
      .array(
        z.object({
          competitionId: z.string(),
          name: z.string().openapi({ example: "Indian Premier League" }),
          seasons: z.array(
            z.object({
              seasonId: z.string(),
              label: z.string().openapi({ example: "2007/08" }),
              fixtures: count("Fixtures of the season in the release.", 58),
              deliveries: count("Their deliveries.", 13_489),
            }),
          ),
        }),
      )
      .openapi({ description: "Every competition, by name, with its seasons by label." }),
  })
  .openapi("DatasetReleaseScope");

export const releaseSchema = z
  .object({
    version: versionField,
    schemaVersion: z.string().openapi({ description: "The artefact's schema (docs/releases.md).", example: "1.0" }),
    position: z.string().openapi({
      description:
        "The event-log position the release was cut at, `commit:index`: it holds exactly what the log held there.",
      example: "8812:412377",
    }),
    requestedAt: timestamp("When an administrator asked for the release."),
    createdAt: timestamp("When the artefact was stored and the release published."),
    byteLength: z
      .number()
      .int()
      .min(0)
      .openapi({ description: "The artefact's length in bytes.", example: 71_234_567 }),
    sha256: z.string().openapi({
      description: 'SHA-256 of the artefact\'s bytes, lowercase hex; also its ETag (`"sha256:<hex>"`).',
      example: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    }),
    artifactUrl: z.string().openapi({ example: "/api/v1/dataset-releases/2026.11.0/artifact.json" }),
    scope: scopeSchema,
  })
  .openapi("DatasetRelease");

export const jobSchema = z
  .object({
    jobId: z.uuid().openapi({ example: "3f0e8f1e-8d8a-4b8e-9a53-2b9b8f1f1c11" }),
    version: versionField,
    status: z.enum(["queued", "generating", "published", "failed"]).openapi({
      description:
        '`queued` → `generating` → `published`, or `failed` (docs/releases.md, "Jobs"). A restart during generation begins it again (`attempts` rises).',
    }),
    position: z
      .string()
      .openapi({ description: "The event-log position the release is cut at.", example: "8812:412377" }),
    schemaVersion: z.string().openapi({ example: "1.0" }),
    attempts: z.number().int().min(0).openapi({ description: "Generations begun, restarts included.", example: 1 }),
    progress: z
      .object({
        itemsDone: z.number().int().min(0).openapi({ example: 640 }),
        itemsTotal: z
          .number()
          .int()
          .min(0)
          .nullable()
          .openapi({ description: "null until generation begins.", example: 2100 }),
      })
      .openapi({ description: "Streams read (fixtures, players, teams…) of all the release reads." }),
    requestedAt: timestamp("When the job was accepted."),
    startedAt: timestamp("When generation first began; null while queued.").nullable(),
    updatedAt: timestamp("The job's last change."),
    finishedAt: timestamp("When it was published or failed; null until then.").nullable(),
    failure: z.string().nullable().openapi({ description: "Why it failed; null unless failed." }),
    release: z
      .union([releaseSchema, z.null()])
      .openapi({ description: "The published release; null until published." }),
  })
  .openapi("DatasetReleaseJob");

export const releaseToApi = (release: Release) => ({
  version: release.version,
  schemaVersion: release.schemaVersion,
  position: release.position,
  requestedAt: release.requestedAt.toISOString(),
  createdAt: release.createdAt.toISOString(),
  byteLength: release.byteLength,
  sha256: release.sha256,
  artifactUrl: artifactPath(release.version),
  scope: release.scope,
});

export const jobToApi = (job: ReleaseJobView, release: Release | undefined) => ({
  jobId: job.jobId,
  version: job.version,
  status: job.status,
  position: job.position,
  schemaVersion: job.schemaVersion,
  attempts: job.attempts,
  progress: { itemsDone: job.itemsDone, itemsTotal: job.itemsTotal },
  requestedAt: job.requestedAt.toISOString(),
  startedAt: job.startedAt?.toISOString() ?? null,
  updatedAt: job.updatedAt.toISOString(),
  finishedAt: job.finishedAt?.toISOString() ?? null,
  failure: job.failure,
  release: release && release.jobId === job.jobId ? releaseToApi(release) : null,
});
