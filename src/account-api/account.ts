import { createRoute, z } from "@hono/zod-openapi";
import { deleteAccount } from "../commands/accounts/delete-account.js";
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
import { ApiError, errorResponses } from "../http/errors.js";
import { signedInWithin } from "../identity/verifier.js";
import { readModels } from "../read-api/params.js";
import { userOf, userSchema } from "./schemas.js";

/** A deletion needs a sign-in at most this old (the specification's 15 minutes). */
export const DELETION_SIGN_IN_MINUTES = 15;

const meRoute = createRoute({
  method: "get",
  path: "/api/v1/auth/me",
  tags: ["Account and access"],
  operationId: "getCurrentUser",
  summary: "The signed-in user",
  description:
    "Verifies the bearer token, creates the local account as a viewer on first sight (signing in never promotes, approves or grants scope) and answers with the server-held role, request state and scope.",
  ...implemented,
  security: bearerSecurity,
  responses: {
    200: {
      description: "The signed-in user",
      content: { "application/json": { schema: z.object({ user: userSchema }).openapi("CurrentUserResponse") } },
    },
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/api/v1/account",
  tags: ["Account and access"],
  operationId: "deleteAccount",
  summary: "Delete the signed-in account",
  description: `Needs a sign-in at most ${DELETION_SIGN_IN_MINUTES} minutes old (the token's \`auth_time\`, else its newest \`amr\` timestamp other than a token refresh; never \`iat\`) and \`{"confirmation": "DELETE"}\`. Disables the account (role, request and scope revoked), hard-deletes the user at the identity provider, then replaces the account's identity fields with a tombstone and erases its subject and display names from the event log too (their key is destroyed). Submissions, fixtures, deliveries, statistics and provenance stay, naming the account by its id. After a provider failure (503) the account stays disabled and the same request may be repeated; a repeat after success answers 204 again.`,
  ...implemented,
  security: bearerSecurity,
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .strictObject({
              confirmation: z
                .string()
                .refine((value) => value === "DELETE", { message: "Must be exactly DELETE" })
                .openapi({ description: "Exactly `DELETE`; anything else is 422.", example: "DELETE" }),
            })
            .openapi("AccountDeletionRequest"),
        },
      },
    },
  },
  responses: {
    204: { description: "Deleted: the account is tombstoned and the provider's user is gone" },
    401: {
      description:
        'Missing or invalid token (`WWW-Authenticate: Bearer`), or a sign-in older than 15 minutes (`WWW-Authenticate: Bearer error="insufficient_user_authentication", max_age=900`, RFC 9470): sign in again.',
      content: errorResponses(401)[401]?.content,
    },
    501: {
      description:
        "ACCOUNT_DELETION_UNAVAILABLE: the identity provider's admin secret is not configured; nothing changed.",
      content: errorResponses(501)[501]?.content,
    },
    503: {
      description:
        "IDENTITY_PROVIDER_UNAVAILABLE: the provider did not delete the user; the account stays disabled, repeat the request.",
      content: errorResponses(503)[503]?.content,
    },
  },
});

export function registerAccount(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  const sql = readModels(deps);
  app.use(meRoute.path, requireCaller(deps));
  app.use(deleteRoute.path, requireCaller(deps, { allowDisabled: true }));

  app.openapi(meRoute, async (c) => {
    const { account } = callerOf(c);
    return c.json({ user: await userOf(sql(), account) }, 200);
  });

  app.openapi(deleteRoute, async (c) => {
    const services = application(deps);
    const caller = callerOf(c);
    const provider = services.identity.providerAdmin;
    if (!provider)
      throw new ApiError("ACCOUNT_DELETION_UNAVAILABLE", "Account deletion is not configured on this server");
    if (!signedInWithin(caller.identity, DELETION_SIGN_IN_MINUTES))
      throw new ApiError(
        "UNAUTHORIZED",
        `Deleting an account needs a sign-in within the last ${DELETION_SIGN_IN_MINUTES} minutes; sign in again`,
      ).withChallenge(
        `Bearer error="insufficient_user_authentication", error_description="A recent sign-in is required", max_age=${DELETION_SIGN_IN_MINUTES * 60}`,
      );

    const accountId = caller.account.accountId;
    const result = await deleteAccount(
      services.store,
      provider,
      { accountId, subject: caller.identity.subject },
      commandContext(c),
    );
    // Read-your-writes also when the account is only disabled: the admin list drops it at once.
    await settled(services, result.outcome);
    if (!result.deleted) {
      const { reason, status } = result.failure;
      deps.logger.warn({ accountId, reason, status }, "identity provider did not delete the user");
      throw new ApiError(
        "IDENTITY_PROVIDER_UNAVAILABLE",
        "The identity provider could not delete the user; the account is disabled, repeat the request",
      );
    }
    return c.body(null, 204);
  });
}
