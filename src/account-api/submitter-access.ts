import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ROLES } from "../../streams/account.js";
import {
  type AccountOutcome,
  changeRole,
  decideSubmitterAccess,
  rejectSubmitterAccess,
  requestSubmitterAccess,
} from "../commands/accounts/handlers.js";
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
import { SAMPLE } from "../ingest/sample-ids.js";
import { pathId, readModels } from "../read-api/params.js";
import { requestedCompetitionSchema, userOf, userSchema } from "./schemas.js";

/**
 * The submitter-access lifecycle (specification, "States and transitions"): a viewer asks
 * for one competition; an administrator approves exactly that, rejects it, later replaces
 * the scope or revokes it, and may promote an active non-admin to admin. Every decision is
 * an event on the account's stream; a change the state machine does not allow is 409
 * INVALID_SUBMITTER_ACCESS_TRANSITION and writes nothing.
 */
const competitionId = z.string().min(1).max(128).openapi({ example: SAMPLE.competitionId });
const userId = pathId("userId", "The account id (`id` of the user).", "0d5f1c1e-6c0b-5b8e-9a53-7b1d0f3a2c11");
const conflict = {
  ...errorResponse(
    409,
    "INVALID_SUBMITTER_ACCESS_TRANSITION: the change is not allowed from the account's current state; nothing changed.",
  ),
};
const userResponse = {
  description: "The user as the decision left it",
  content: { "application/json": { schema: z.object({ data: userSchema }).openapi("UserResponse") } },
};
const json = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});

const requestRoute = createRoute({
  method: "post",
  path: "/api/v1/submitter-access-requests",
  tags: ["Account and access"],
  operationId: "requestSubmitterAccess",
  summary: "Request submitter access",
  description:
    "Asks for submitter access to one competition. Allowed for a viewer with no request or a rejected one; 409 while a request is pending, after a (legacy or revoked) approval, and for submitters and admins. 422 for a competition that does not exist.",
  ...implemented,
  security: bearerSecurity,
  request: { body: json(z.strictObject({ competitionId }).openapi("SubmitterAccessRequest")) },
  responses: {
    200: {
      description: "The request is pending",
      content: {
        "application/json": {
          schema: z
            .object({
              data: z.object({
                accountId: z.string(),
                approvalState: z.literal("pending").openapi({ example: "pending" }),
                requestedCompetition: requestedCompetitionSchema,
              }),
            })
            .openapi("SubmitterAccessRequestResult"),
        },
      },
    },
    ...conflict,
  },
});

export const submitterAccessDecisionSchema = z
  .strictObject({
    approved: z.boolean().openapi({ description: "true approves or rescopes; false revokes." }),
    competitionIds: z.array(competitionId).max(100).optional().openapi({
      description:
        "The scope to grant; only with `approved: true`. An empty scope is a 409 (a submitter keeps at least one competition).",
    }),
  })
  .refine((b) => b.approved || b.competitionIds === undefined, {
    message: "competitionIds cannot be sent with approved false",
    path: ["competitionIds"],
  })
  .openapi("SubmitterAccessDecision");

const decisionRoute = createRoute({
  method: "patch",
  path: "/api/v1/admin/users/{userId}/submitter-access",
  tags: ["Account and access"],
  operationId: "decideSubmitterAccess",
  summary: "Approve, revoke or rescope submitter access",
  description:
    "`{approved: true}` on a pending request makes the user a submitter with exactly the requested competition (`competitionIds`, if sent, must be exactly that one). `{approved: true, competitionIds: [...]}` on an approved submitter replaces the scope (at least one existing competition). `{approved: false}` on an approved submitter revokes: the role returns to viewer, every scope is removed and `approvalState` keeps the historical `approved`. Anything else is 409. Admin only.",
  ...implemented,
  security: bearerSecurity,
  request: {
    params: z.object({ userId }),
    body: json(submitterAccessDecisionSchema),
  },
  responses: {
    200: userResponse,
    ...errorResponses(404),
    ...conflict,
  },
});

const rejectionRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/users/{userId}/submitter-access/rejection",
  tags: ["Account and access"],
  operationId: "rejectSubmitterAccess",
  summary: "Reject a submitter access request",
  description:
    "Rejects a pending request: the user stays a viewer with no scope and may ask again. 409 when no request is pending. No body. Admin only.",
  ...implemented,
  security: bearerSecurity,
  request: { params: z.object({ userId }) },
  responses: { 200: userResponse, ...errorResponses(404), ...conflict },
});

const roleRoute = createRoute({
  method: "patch",
  path: "/api/v1/admin/users/{userId}/role",
  tags: ["Account and access"],
  operationId: "promoteUser",
  summary: "Promote a user to admin",
  description:
    '`{role: "admin"}` promotes an active viewer or submitter. 409 for `viewer` or `submitter` (roles change only through submitter access), for an admin (no demotion), for yourself and for a disabled user. Admin only.',
  ...implemented,
  security: bearerSecurity,
  request: {
    params: z.object({ userId }),
    body: json(z.strictObject({ role: z.enum(ROLES).openapi({ example: "admin" }) }).openapi("RoleChange")),
  },
  responses: {
    200: userResponse,
    ...errorResponses(404),
    ...conflict,
  },
});

export function registerSubmitterAccess(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  const sql = readModels(deps);
  app.use(requestRoute.path, requireCaller(deps));
  app.use("/api/v1/admin/users/:userId/*", requireCaller(deps, { admin: true }));

  /** Runs an admin decision on the path's user and answers with the user it leaves. */
  async function decided(c: Context, decide: (actorId: string, accountId: string) => Promise<AccountOutcome>) {
    const outcome = await decide(callerOf(c).account.accountId, c.req.param("userId") as string);
    await settled(application(deps), outcome);
    return c.json({ data: await userOf(sql(), outcome.account) }, 200);
  }

  app.openapi(requestRoute, async (c) => {
    const services = application(deps);
    const { account } = callerOf(c);
    const outcome = await requestSubmitterAccess(
      services.store,
      { accountId: account.accountId, competitionId: c.req.valid("json").competitionId },
      commandContext(c),
    );
    await settled(services, outcome);
    const user = await userOf(sql(), outcome.account);
    return c.json(
      {
        data: {
          accountId: user.id,
          approvalState: "pending" as const,
          requestedCompetition: user.requestedCompetition as NonNullable<typeof user.requestedCompetition>,
        },
      },
      200,
    );
  });

  app.openapi(decisionRoute, (c) =>
    decided(c, (actorId, accountId) =>
      decideSubmitterAccess(
        application(deps).store,
        { actorId, accountId, decision: c.req.valid("json") },
        commandContext(c),
      ),
    ),
  );

  app.openapi(rejectionRoute, (c) =>
    decided(c, (actorId, accountId) =>
      rejectSubmitterAccess(application(deps).store, { actorId, accountId }, commandContext(c)),
    ),
  );

  app.openapi(roleRoute, (c) =>
    decided(c, (actorId, accountId) =>
      changeRole(application(deps).store, { actorId, accountId, role: c.req.valid("json").role }, commandContext(c)),
    ),
  );
}
