import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { bearerSecurity, callerOf, registerBearerScheme, requireCaller } from "../http/authentication.js";
import { errorResponses } from "../http/errors.js";
import { pathId, readModels } from "../read-api/params.js";
import { readableSubmissionProvenance } from "../read-api/queries/submission-provenance.js";
import { ACCESS_NOTE } from "../submission-api/corrections.js";
import { submissionProvenanceSchema } from "./schemas.js";

/** Submission provenance, read from the `delivery_history` read model's submission records. */

const submissionProvenanceRoute = createRoute({
  method: "get",
  path: "/api/v1/provenance/submissions/{submissionId}",
  tags: ["Provenance"],
  operationId: "getSubmissionProvenance",
  summary: "Who sent a submission, what exactly, and what became of its events",
  description: `A direct submission as it was accepted: the submitter, when it was received, its schema version, the SHA-256 of its validated payload in canonical JSON and, for an upload, the original filename, media type, size and SHA-256 of the bytes; then its events in submitted order, each with its outcome, current revision and a link to its revision provenance. ${ACCESS_NOTE}`,
  ...implemented,
  security: bearerSecurity,
  request: {
    params: z.object({
      submissionId: pathId(
        "submissionId",
        "The id the submission was accepted under.",
        "5f0c8f7e-2b1a-4c3d-9e8f-7a6b5c4d3e2f",
      ),
    }),
  },
  responses: {
    200: {
      description: "The submission's provenance",
      content: { "application/json": { schema: z.object({ data: submissionProvenanceSchema }) } },
    },
    ...errorResponses(404),
  },
});

export function registerSubmissionProvenance(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  const sql = readModels(deps);
  app.use("/api/v1/provenance/submissions/:submissionId", requireCaller(deps));

  app.openapi(submissionProvenanceRoute, async (c) => {
    const submissionId = c.req.valid("param").submissionId.toLowerCase();
    return c.json({ data: await readableSubmissionProvenance(sql(), callerOf(c).account, submissionId) }, 200);
  });
}
