import type { Context, MiddlewareHandler } from "hono";
import type { Account } from "../../streams/account-state.js";
import { ensureAccount } from "../commands/accounts/handlers.js";
import type { HandleResult } from "../commands/handle.js";
import type { EventStore } from "../event-store/port.js";
import type { Identity } from "../identity/open.js";
import { InvalidToken, type VerifiedIdentity } from "../identity/verifier.js";
import type { ProjectionRunner } from "../projections/runner.js";
import { looksLikeApiKey } from "./access.js";
import type { Router } from "./api.js";
import type { AppDependencies } from "./app.js";
import { ApiError } from "./errors.js";
import type { Logger } from "./logging.js";

/**
 * The Application access class: a bearer token from the identity provider, verified, then
 * the caller's local account (created as a viewer on first sight). Authorisation uses only
 * what the account stream holds; nothing in the token or the request sets a role or scope.
 */
export type Caller = { account: Account; identity: VerifiedIdentity };

/** What the application routes need beyond the read models. */
export type ApplicationDependencies = {
  logger: Logger;
  identity: Identity;
  store: EventStore;
  /** Read-your-writes: answers wait until the `accounts` read model has the command's events. */
  projections?: ProjectionRunner;
};

export function application(deps: AppDependencies): ApplicationDependencies {
  if (!deps.identity || !deps.store) throw new Error("this app was created without identity or an event store");
  return { logger: deps.logger, identity: deps.identity, store: deps.store, projections: deps.projections };
}

/** `Authorization: Bearer <token>`: the token, undefined when absent; any other form is malformed. */
function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw new ApiError("UNAUTHORIZED", "The Authorization header must be `Bearer <token>`");
  return match[1];
}

const MESSAGES: Partial<Record<InvalidToken["reason"], string>> = {
  missing: "A bearer token is required",
  expired: "The bearer token has expired",
};

type Requirement = {
  /** Only an administrator passes (403 otherwise). */
  admin?: boolean;
  /** A disabled account passes too: a deletion interrupted after disabling it may be repeated. */
  allowDisabled?: boolean;
};

/**
 * Middleware of an application route: verifies the bearer token (401 for any problem with
 * it), loads or creates the caller's account, refuses a disabled account (403) and, where
 * asked, a non-admin (403). It runs before the request is validated, so nobody learns
 * anything about a route's input without credentials. Handlers read `callerOf(c)`.
 */
export const requireCaller =
  (deps: AppDependencies, requirement: Requirement = {}): MiddlewareHandler =>
  async (c, next) => {
    const authorization = c.req.header("Authorization");
    const caller = await authenticate(deps, c, bearerToken(authorization), requirement).catch((error: unknown) => {
      if (!(error instanceof InvalidToken)) throw error;
      const message = looksLikeApiKey(authorization)
        ? "That is an API key: keys go in X-API-Key, and only the public reads take one; this operation needs a bearer token from the identity provider"
        : (MESSAGES[error.reason] ?? "The bearer token is not valid");
      throw new ApiError("UNAUTHORIZED", message);
    });
    c.set(CALLER as never, caller satisfies Caller as never);
    await next();
  };

/**
 * The caller a token names: verified (InvalidToken, logged, for any problem with it), their
 * account loaded or created, a disabled account or, where asked, a non-admin refused (403).
 * The web UI's signed-in pages authenticate their session's token through it too.
 */
export async function authenticate(
  deps: AppDependencies,
  c: Context,
  token: string | undefined,
  requirement: Requirement = {},
): Promise<Caller> {
  const app = application(deps);
  let identity: VerifiedIdentity;
  try {
    identity = await app.identity.verifier.verify(token);
  } catch (error) {
    if (error instanceof InvalidToken)
      deps.logger.info({ requestId: c.get("requestId"), reason: error.reason }, "bearer token refused");
    throw error;
  }
  const outcome = await ensureAccount(
    app.store,
    { subject: identity.subject, displayName: identity.displayName },
    commandContext(c),
  );
  await settled(app, outcome);
  const { account } = outcome;
  if (account.disabled && !requirement.allowDisabled) throw new ApiError("FORBIDDEN", "This account is disabled");
  if (requirement.admin) requireAdmin(account);
  return { account, identity };
}

/** What refuses anyone but an active administrator, in the API and on the pages alike. */
export const notAnAdministrator = () => new ApiError("FORBIDDEN", "Only an administrator may do this");

/** Refuses an account that is not an active administrator (403). */
export function requireAdmin(account: Pick<Account, "role" | "disabled">): void {
  if (account.role !== "admin" || account.disabled) throw notAnAdministrator();
}

const CALLER = "caller";

/** The caller `requireCaller` verified for this request. */
export function callerOf(c: Context): Caller {
  const caller = c.get(CALLER as never) as Caller | undefined;
  if (!caller) throw new Error(`no caller: ${c.req.path} is not behind requireCaller`);
  return caller;
}

/** The OpenAPI security requirement of an application operation. */
export const bearerSecurity = [{ bearerAuth: [] }];

/** Declares the bearer scheme `bearerSecurity` refers to. */
export function registerBearerScheme(app: Router) {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "An access token of the identity provider (`cricket token` prints one from the development issuer of the embedded default).",
  });
}

/** Event metadata of a command taken in this request (the handlers set the actor). */
export const commandContext = (c: Context) => ({ requestId: c.get("requestId") as string, now: new Date() });

/** Waits (bounded) until the read models (by default `accounts`) have applied what a command appended. */
export async function settled(
  app: ApplicationDependencies,
  outcome: Pick<HandleResult, "events" | "position">,
  readModels: readonly string[] = ["accounts"],
): Promise<void> {
  if (outcome.events.length === 0 || !app.projections) return;
  // The command stands either way; a late read model only delays what the next read shows.
  if (!(await app.projections.waitFor(readModels, outcome.position)))
    app.logger.warn({ position: String(outcome.position.commit), readModels }, "read models did not catch up in time");
}
