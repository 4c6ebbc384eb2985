import { createRoute, z } from "@hono/zod-openapi";
import { activeAccountKey, listActiveAccounts } from "../accounts/queries.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { application, bearerSecurity, registerBearerScheme, requireCaller } from "../http/authentication.js";
import { storableTimestamp } from "../http/dates.js";
import { ApiError, errorResponses } from "../http/errors.js";
import { collectionSchema, cursorParam, integerParam, keysetPage } from "../http/pagination.js";
import { ProviderUnavailable } from "../identity/provider-admin.js";
import { readModels, UNKNOWN_PARAMETERS } from "../read-api/params.js";
import { toUser, userSchema } from "./schemas.js";

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

const adminUserSchema = userSchema
  .extend({
    email: z.string().nullable().openapi({
      description:
        "The email the identity provider holds for the user, read with the server-only secret at request time; never stored by this service. Null when the provider has none.",
      example: "asha@example.com",
    }),
  })
  .openapi("AdminUser");

const route = createRoute({
  method: "get",
  path: "/api/v1/admin/users",
  tags: ["Account and access"],
  operationId: "listUsers",
  summary: "List active users",
  description: `Active (not disabled, not deleted) users, oldest account first, with the email the identity provider holds for each. 503 IDENTITY_PROVIDER_UNAVAILABLE when the provider's admin secret is not configured or the provider does not answer. Admin only. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  security: bearerSecurity,
  request: {
    query: z.object({
      limit: integerParam(
        1,
        MAX_LIMIT,
        `Users per page, 1 to ${MAX_LIMIT}; ${DEFAULT_LIMIT} when absent.`,
        DEFAULT_LIMIT,
      )
        .optional()
        .openapi({ default: DEFAULT_LIMIT }),
      cursor: cursorParam,
    }),
  },
  responses: {
    200: {
      description: "A page of users",
      content: {
        "application/json": {
          schema: collectionSchema(adminUserSchema, "AdminUserList", "Active users, oldest account first."),
        },
      },
    },
    ...errorResponses(503),
  },
});

export function registerAdminUsers(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  const sql = readModels(deps);
  app.use(route.path, requireCaller(deps, { admin: true }));
  app.openapi(route, async (c) => {
    const { limit = DEFAULT_LIMIT, cursor } = c.req.valid("query");
    const provider = application(deps).identity.providerAdmin;
    if (!provider) throw unavailable();
    const emails = await provider.listUsers().then(
      (users) => new Map(users.map((u) => [u.subject, u.email])),
      (error: unknown) => {
        if (!(error instanceof ProviderUnavailable)) throw error;
        deps.logger.warn({ reason: error.reason, status: error.status }, "identity provider did not list users");
        throw unavailable();
      },
    );
    const page = await keysetPage({
      scope: { operation: "listUsers", inputs: {} },
      limit,
      cursor,
      key: z.tuple([storableTimestamp(), z.string()]),
      fetch: async (after, take) =>
        (await listActiveAccounts(sql(), { after, take })).map((a) => ({ item: a, key: activeAccountKey(a) })),
    });
    const data = page.data.map((a) => ({
      ...toUser(a, a.requestedCompetition),
      email: (a.subject && emails.get(a.subject)) ?? null,
    }));
    return c.json({ data, pagination: page.pagination }, 200);
  });
}

const unavailable = () =>
  new ApiError("IDENTITY_PROVIDER_UNAVAILABLE", "The identity provider's user list is not available right now");
