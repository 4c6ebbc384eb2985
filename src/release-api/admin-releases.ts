import { createRoute, z } from "@hono/zod-openapi";
import { requestRelease } from "../commands/releases/handlers.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import {
  application,
  bearerSecurity,
  callerOf,
  commandContext,
  registerBearerScheme,
  requireCaller,
} from "../http/authentication.js";
import { ApiError, errorResponse, errorResponses, notFound } from "../http/errors.js";
import { readModels } from "../read-api/params.js";
import { findJob, findRelease } from "../releases/queries.js";
import { JOBS_PATH, jobSchema, jobToApi, releaseSchema, releaseToApi, versionField } from "./schemas.js";

/**
 * Release administration (admin bearer): asking for a release, and following its job. The
 * job is durable on the release's stream and generated wherever the projectors run
 * (src/releases/generator.ts); these routes only append the request and read the
 * `releases` read model (docs/releases.md).
 */

const TAGS = ["Dataset releases"];
const COLLECTION = "/api/v1/admin/dataset-releases";
const READ_MODELS = ["releases"] as const;

const requestRoute = createRoute({
  method: "post",
  path: COLLECTION,
  tags: TAGS,
  operationId: "requestDatasetRelease",
  summary: "Publish a dataset release",
  description:
    "Cuts a release of everything published, at the event-log position of this request, under `version` (`MAJOR.MINOR.PATCH`). The body is `{version}` and nothing else (422 otherwise). 202 with a new job; 202 with the running job when that version is queued or generating already (never a second job, however many ask at once); 200 with the metadata when the version is published. A version whose last job failed gets a new job. Admin only.",
  ...implemented,
  security: bearerSecurity,
  request: {
    body: {
      required: true,
      content: {
        "application/json": { schema: z.strictObject({ version: versionField }).openapi("DatasetReleaseRequest") },
      },
    },
  },
  responses: {
    200: {
      description: "Published already: its metadata",
      content: { "application/json": { schema: z.object({ data: releaseSchema }).openapi("DatasetReleasePublished") } },
    },
    202: {
      description: "Accepted: the job generating it (new or already running)",
      headers: {
        Location: {
          description: "The job's URI.",
          schema: { type: "string", example: `${JOBS_PATH}/3f0e8f1e-8d8a-4b8e-9a53-2b9b8f1f1c11` },
        },
      },
      content: { "application/json": { schema: z.object({ data: jobSchema }).openapi("DatasetReleaseJobAccepted") } },
    },
    ...errorResponses(422),
  },
});

const jobRoute = createRoute({
  method: "get",
  path: `${JOBS_PATH}/{jobId}`,
  tags: TAGS,
  operationId: "getDatasetReleaseJob",
  summary: "A release generation job",
  description:
    "The job's state (`queued`, `generating`, `published`, `failed`), progress (streams read of all the release reads), timings, and once published the release's metadata. `jobId` is a UUID: an unknown one, and any text that is not a UUID, is 404 (as an event id that is not one). Admin only.",
  ...implemented,
  security: bearerSecurity,
  request: {
    params: z.object({
      jobId: z.string().openapi({
        param: { name: "jobId", in: "path" },
        description: "The job's id, a UUID; any other text names no job (404).",
        example: "3f0e8f1e-8d8a-4b8e-9a53-2b9b8f1f1c11",
      }),
    }),
  },
  responses: {
    200: {
      description: "The job",
      content: { "application/json": { schema: z.object({ data: jobSchema }).openapi("DatasetReleaseJobResponse") } },
    },
    ...errorResponse(404, "NOT_FOUND: no such job (also for a job id that is not a UUID)"),
  },
});

export function registerAdminDatasetReleases(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  const sql = readModels(deps);
  const admin = requireCaller(deps, { admin: true });
  app.use(COLLECTION, admin);
  app.use(`${JOBS_PATH}/:jobId`, admin);

  /** The job as the read model shows it, with its release once published. */
  const jobView = async (jobId: string) => {
    const job = await findJob(sql(), jobId);
    return job && jobToApi(job, await findRelease(sql(), job.version));
  };

  app.openapi(requestRoute, async (c) => {
    const { version } = c.req.valid("json");
    const services = application(deps);
    const context = { ...commandContext(c), actor: callerOf(c).account.accountId };
    const { outcome, state } = await requestRelease(services.store, version, context);
    // A request that found the job waits too: the read model may not have applied the request it found.
    await services.projections?.waitFor(READ_MODELS, outcome.position);
    if (state.job.status === "published") {
      const release = await findRelease(sql(), version);
      if (release) return c.json({ data: releaseToApi(release) }, 200);
    } else {
      const job = await jobView(state.job.jobId);
      if (job) {
        c.header("Location", `${JOBS_PATH}/${job.jobId}`);
        return c.json({ data: job }, 202);
      }
    }
    // The request stands (asking again finds it); only the read model is late.
    throw new ApiError("NOT_READY", "The release's job is recorded but not readable yet; ask again");
  });

  app.openapi(jobRoute, async (c) => {
    const { jobId } = c.req.valid("param");
    const job = await jobView(jobId);
    if (!job) throw notFound("dataset release job");
    return c.json({ data: job }, 200);
  });
}
