import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { submit } from "../commands/submissions/handlers.js";
import { JSON_SOURCE } from "../commands/submissions/submit.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import {
  application,
  bearerSecurity,
  callerOf,
  commandContext,
  registerBearerScheme,
  requireCaller,
  settled,
} from "../http/authentication.js";
import { errorResponse, errorResponses } from "../http/errors.js";
import { jsonBody } from "../http/json-body.js";
import { accountLimit } from "../http/rate-limits.js";
import { readModels } from "../read-api/params.js";
import { directSubmissionSchema, MAX_EVENTS } from "../submissions/schema.js";
import { acceptanceResultSchema } from "./schemas.js";
import { readUpload } from "./uploads.js";

/**
 * Direct submissions (admin only): a JSON body or an uploaded file, checked in one pass
 * against the ledger and stored all or nothing. The answer waits until the public reads
 * show the new deliveries.
 */

/**
 * What a delivery write's caller reads next, so its answer waits for them: the fixture and its
 * version, the events and their exports, the history. Not the statistics: their rebuild follows
 * a moment later, and its cache key holds the change they reflect, so nothing stale is cached.
 */
export const FIXTURE_READ_MODELS = ["stream_versions", "fixtures", "deliveries", "delivery_history"] as const;

export const SUBMISSION_LIMIT = { limit: 30, windowMs: 60_000 };

const LIMIT_NOTE = `Each account may send ${SUBMISSION_LIMIT.limit} submissions (JSON or upload together) per 60 seconds; beyond that 429 RATE_LIMIT_EXCEEDED with Retry-After. Accepted responses carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset.`;

const VALIDATION_NOTE =
  "Every detectable problem is reported in one pass, each detail with its code (INVALID_FIELD, FIXTURE_NOT_FOUND, INVALID_INNINGS, INVALID_PARTICIPANT, UNKNOWN_DISMISSAL_KIND, DUPLICATE_EVENT_ID, EVENT_CONFLICT), field path within the event and zero-based eventIndex: 422 VALIDATION_FAILED when any problem is the sender's to mend (conflicts with accepted deliveries listed beside them), 409 when all are conflicts. Nothing is stored unless every event is valid and conflicts with nothing.";

const accepted = {
  201: {
    description: "Accepted: every event is stored and visible in the public reads",
    content: { "application/json": { schema: z.object({ data: acceptanceResultSchema }) } },
  },
};
const conflicts = {
  ...errorResponse(
    409,
    "The only problems are conflicts with accepted deliveries: DUPLICATE_EVENT_ID when every one is an event id already accepted (in any fixture), else EVENT_CONFLICT (a sequence number or ball of an innings held by a live delivery, or an order that would cross one). The details name each event and give each conflict its own code. Nothing was stored.",
  ),
};
const limited = {
  ...errorResponse(
    429,
    `RATE_LIMIT_EXCEEDED: the account sent ${SUBMISSION_LIMIT.limit} submissions in the last 60 seconds; with Retry-After and RateLimit-*`,
  ),
  ...errorResponse(
    503,
    "RATE_LIMIT_UNAVAILABLE: the shared rate-limit counter cannot be reached; nothing was admitted",
  ),
};

const submitRoute = createRoute({
  method: "post",
  path: "/api/v1/submissions",
  tags: ["Submissions"],
  operationId: "submitEvents",
  summary: "Submit delivery events",
  description: `Adds 1 to ${MAX_EVENTS} deliveries to the innings of an existing fixture. Strikers, non-strikers and dismissed batters must be in the batting side's squad; bowlers and fielders in the fielding side's (a substitute fielder may be any registered participant). Within each innings, ordering the submitted and accepted deliveries together by sequence number and by (overNumber, positionInOver) must give the same order (gaps may be filled later), and over numbers stay within the format's overs (20 in a T20, 50 in an ODI, one in a super over). ${VALIDATION_NOTE} ${LIMIT_NOTE} Admin only.`,
  ...implemented,
  security: bearerSecurity,
  request: {
    body: {
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/DirectSubmission" } } },
    },
  },
  responses: { ...accepted, ...conflicts, ...limited },
});

const uploadRoute = createRoute({
  method: "post",
  path: "/api/v1/submissions/uploads",
  tags: ["Submissions"],
  operationId: "uploadSubmission",
  summary: "Upload a JSON or CSV submission file",
  description: `One file in the multipart field \`file\`, at most 1 MB: a \`.json\` file sent as application/json holding a direct submission, or a \`.csv\` file sent as text/csv with one event per row and exactly the header fixtureId, schemaVersion, eventId, inningsId, sequenceNumber, overNumber, positionInOver, ballNumber, strikerId, nonStrikerId, bowlerId, runsOffBat, runsExtras, runsTotal, runsNonBoundary, extraWides, extraNoBalls, extraByes, extraLegByes, extraPenalty, wickets. In a CSV, wickets is a JSON array in its cell (blank: none), blank extras are absent and every row names the same fixture and schema version; problems name the CSV column and eventIndex is the data row (0 = the first row after the header). The original filename, media type, byte length and SHA-256 of the bytes are kept with the submission. ${VALIDATION_NOTE} ${LIMIT_NOTE} Admin only.`,
  ...implemented,
  security: bearerSecurity,
  request: {
    body: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            required: ["file"],
            properties: {
              file: { type: "string", format: "binary", description: "The .json or .csv file." },
            },
          },
        },
      },
    },
  },
  responses: {
    ...accepted,
    ...conflicts,
    ...errorResponse(413, "PAYLOAD_TOO_LARGE: the file is over 1 MB"),
    ...errorResponses(422),
    ...limited,
  },
});

export function registerSubmissions(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  app.openAPIRegistry.register("DirectSubmission", directSubmissionSchema);
  const sql = readModels(deps);
  const admin = requireCaller(deps, { admin: true });
  const limit = accountLimit(deps, "submissions", SUBMISSION_LIMIT);
  for (const path of [submitRoute.path, uploadRoute.path]) app.use(path, admin, limit);

  /** Records the submission and answers once the public reads show it. */
  async function accept(c: Context, input: Parameters<typeof submit>[1]) {
    const services = application(deps);
    const receipt = await submit({ store: services.store, sql: sql() }, input, {
      ...commandContext(c),
      actor: callerOf(c).account.accountId,
    });
    await settled(services, receipt, FIXTURE_READ_MODELS);
    return c.json(
      {
        data: {
          submissionId: receipt.submissionId,
          fixtureId: receipt.fixtureId,
          submitterId: callerOf(c).account.accountId,
          status: "accepted" as const,
          receivedAt: receipt.receivedAt,
          schemaVersion: receipt.schemaVersion,
          eventCount: receipt.eventCount,
        },
      },
      201,
    );
  }

  app.openapi(submitRoute, async (c) => accept(c, { body: await jsonBody(c), source: JSON_SOURCE, upload: null }));

  app.openapi(uploadRoute, async (c) => accept(c, await readUpload(c)));
}
