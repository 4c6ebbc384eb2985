import { createRoute, z } from "@hono/zod-openapi";
import { anonymousAccess } from "../http/access.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { errorResponses } from "../http/errors.js";
import { queryDefinition } from "../questions/definition.js";
import { evaluate } from "../questions/evaluate.js";
import { evaluationContext } from "./context.js";
import { evaluationSchema } from "./schemas.js";

const route = createRoute({
  method: "post",
  path: "/api/v1/query-definitions/evaluate",
  tags: ["Analytics"],
  operationId: "evaluateQueryDefinition",
  summary: "Evaluate a structured query definition",
  description:
    "Evaluates a definition (the body) by the published read it names: a leaderboard (`GET /statistics/leaderboards`) or one participant aggregate (`GET /participants/{participantId}/statistics/{statisticId}`), whose document comes back unchanged as `resource`, with its `endpoint` and the statistic ids used. Entities may be given by id or by name. A name that matches nothing is the outcome `no_match`, one that matches several is `ambiguous` with the candidates (id and label) to ask again with; both are 200. A player's name several players share is narrowed to those with figures in the scope asked about. An invalid definition is 422 VALIDATION_FAILED naming its fields. No credential: the anonymous read limits apply, per client and platform-wide (docs/queries.md).",
  ...implemented,
  security: [],
  request: {
    body: { required: true, content: { "application/json": { schema: queryDefinition } } },
  },
  responses: {
    200: {
      description: "The outcome, and the resource when answered",
      content: {
        "application/json": { schema: z.object({ data: evaluationSchema }).openapi("QueryEvaluationResponse") },
      },
    },
    ...errorResponses(400, 413, 415, 429, 503),
  },
});

export function registerQueryEvaluation(app: Router, deps: AppDependencies) {
  const context = evaluationContext(deps);
  app.openapi({ ...route, middleware: [anonymousAccess(deps)] }, async (c) => {
    const data = await evaluate(await context(), c.req.valid("json"));
    return c.json({ data } as never, 200);
  });
}
