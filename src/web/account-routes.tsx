import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { findAccount, listPendingRequests } from "../accounts/queries.js";
import { listBatches } from "../batches/queries.js";
import { requestSubmitterAccess } from "../commands/accounts/handlers.js";
import { sourceOf } from "../http/access.js";
import type { Router } from "../http/api.js";
import { type AppDependencies, secretOf } from "../http/app.js";
import { application, authenticate, type Caller, commandContext, settled } from "../http/authentication.js";
import { ApiError, asApiError } from "../http/errors.js";
import { admitKey } from "../http/rate-limits.js";
import { SignInRefused, SignInThrottled } from "../identity/password-sign-in.js";
import { ProviderUnavailable } from "../identity/provider-admin.js";
import { InvalidToken } from "../identity/verifier.js";
import { readModels } from "../read-api/params.js";
import { readableHistory } from "../read-api/queries/delivery-history.js";
import { listCompetitions } from "../read-api/queries/reference.js";
import { REQUEST_NOTICES, registerAdminPages } from "./admin-routes.js";
import { registerBatchPages } from "./batch-routes.js";
import type { Outcome } from "./outcome.js";
import { AccountPage } from "./pages/account.js";
import { DeliveryHistoryPage } from "./pages/delivery-history.js";
import { NotFoundPage } from "./pages/not-found.js";
import { ACCOUNT_PATH, endSession, fromThisSite, startSession } from "./session.js";
import {
  ANOTHER_SITE,
  formOf,
  fromThisMachine,
  invalidField,
  page,
  posted,
  type SignedInPage,
  signIn,
  textOf,
  viewed,
  withHeadersOf,
} from "./signed-in.js";

/**
 * The signed-in pages (docs/web.md): sign-in, the account page with what the user's role
 * lets them do, and a batch's report. Forms post here and each calls the command the API's
 * operation calls, then answers with a redirect to the page showing the result; a refusal
 * is shown on the page, in the API's words.
 */

/** The account routes, for whoever must tell them from the API's operations. */
export const ACCOUNT_ROUTES = [
  `GET ${ACCOUNT_PATH}`,
  `POST ${ACCOUNT_PATH}/sign-in`,
  `POST ${ACCOUNT_PATH}/sign-out`,
  `POST ${ACCOUNT_PATH}/access-request`,
  `GET ${ACCOUNT_PATH}/deliveries`,
  `GET ${ACCOUNT_PATH}/deliveries/:eventId`,
] as const;

/** A password as typed: every character counts (none trimmed), at most 1,024 of them, else 422. */
function passwordOf(value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 1024)
    throw invalidField("password", "1 to 1,024 characters");
  return value;
}

/**
 * Password sign-ins tried from one client, and for one email, before the provider is asked:
 * it counts them all as this server's, so one client must not spend everyone's, nor many
 * clients guess one account's password unhindered.
 */
const PASSWORD_SIGN_INS = {
  perClient: { limit: 10, windowMs: 60_000 },
  perEmail: { limit: 10, windowMs: 15 * 60_000 },
};

const NOTICES = {
  requested: "Your request was sent to the administrators.",
  ...REQUEST_NOTICES,
} as const;

/**
 * The token a sign-in form asks for: the development issuer's for a typed name (from this
 * machine only), the provider's for an email and password, or a pasted one.
 */
async function signInToken(c: Context, deps: AppDependencies): Promise<string> {
  const form = await formOf(c);
  const { devIssuer, passwordSignIn } = deps.identity ?? {};
  if (devIssuer) {
    if (!fromThisMachine(c, deps)) throw new ApiError("FORBIDDEN", "Sign-in by name works only from this machine.");
    const name = textOf(form.name, "name", 100);
    return devIssuer.issueToken({ subject: name, displayName: name });
  }
  if (passwordSignIn && form.email !== undefined) {
    // The provider sees every attempt as this server's: counted here per client and per account first.
    const email = textOf(form.email, "email", 320);
    await admitKey(deps, c, sourceOf(deps, c), "password-sign-ins", PASSWORD_SIGN_INS.perClient);
    const account = secretOf(deps).digest("sign-in-email", email.toLowerCase());
    await admitKey(deps, c, account, "password-sign-ins-of", PASSWORD_SIGN_INS.perEmail);
    return passwordSignIn(email, passwordOf(form.password));
  }
  return typeof form.token === "string" ? form.token.trim() : "";
}

/** The sign-in page saying why a sign-in failed, with the status (and headers) of the refusal. */
async function signInRefused(c: Context, deps: AppDependencies, error: unknown): Promise<Response> {
  if (error instanceof InvalidToken) return signIn(c, deps, "That token is not valid here.", 401);
  if (error instanceof SignInRefused) return signIn(c, deps, `The identity provider says: ${error.message}`, 401);
  if (error instanceof SignInThrottled) {
    const refused = await signIn(c, deps, "The identity provider takes no more sign-ins just now.", 429);
    refused.headers.set("Retry-After", String(error.retryAfterSeconds));
    return refused;
  }
  if (error instanceof ProviderUnavailable) {
    deps.logger.warn({ reason: error.reason, status: error.status }, "identity provider did not sign in");
    return signIn(c, deps, "The identity provider does not answer just now; try again shortly.", 503);
  }
  const refused = asApiError(error);
  if (!refused) throw error;
  return withHeadersOf(
    refused,
    await signIn(c, deps, refused.details?.[0]?.message ?? refused.message, refused.status),
  );
}

export function registerAccountPages(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);

  async function accountPage(c: Context, caller: Caller, outcome: Outcome, status: ContentfulStatusCode = 200) {
    const user = await findAccount(sql(), caller.account.accountId);
    if (!user) return page(c, <NotFoundPage what="account" />, 404);
    const admin = user.role === "admin";
    const [competitions, batches, requests] = await Promise.all([
      listCompetitions(sql(), { direction: "asc", take: 500 }),
      listBatches(sql(), admin ? {} : { ownerAccountId: user.accountId }, { take: 50 }),
      admin ? listPendingRequests(sql(), { take: 100 }) : [],
    ]);
    return page(
      c,
      <AccountPage
        user={user}
        competitions={competitions.map((r) => r.item)}
        batches={batches}
        requests={requests}
        uploadKey={randomUUID()}
        outcome={outcome}
      />,
      status,
    );
  }

  /** A form's post, its refusals shown on the account page unless another is named. */
  const post = (act: (c: Context, caller: Caller) => Promise<Response>, refusalPage: SignedInPage = accountPage) =>
    posted(deps, act, refusalPage);

  app.get(ACCOUNT_PATH, viewed(deps, accountPage, NOTICES, accountPage));

  app.post(`${ACCOUNT_PATH}/sign-in`, async (c) => {
    if (!fromThisSite(c)) return signIn(c, deps, ANOTHER_SITE, 403);
    let token: string;
    try {
      token = await signInToken(c, deps);
      await authenticate(deps, c, token);
    } catch (error) {
      return signInRefused(c, deps, error);
    }
    startSession(c, token, deps.trustedProxyHops);
    return c.redirect(ACCOUNT_PATH, 303);
  });

  app.post(`${ACCOUNT_PATH}/sign-out`, async (c) => {
    if (!fromThisSite(c)) return signIn(c, deps, ANOTHER_SITE, 403);
    endSession(c);
    return c.redirect("/", 303);
  });

  app.post(
    `${ACCOUNT_PATH}/access-request`,
    post(async (c, { account }) => {
      const competitionId = textOf((await formOf(c)).competitionId, "competitionId");
      const services = application(deps);
      const outcome = await requestSubmitterAccess(
        services.store,
        { accountId: account.accountId, competitionId },
        commandContext(c),
      );
      await settled(services, outcome);
      return c.redirect(`${ACCOUNT_PATH}?done=requested`, 303);
    }),
  );

  // The lookup form's GET: on to the delivery's own page, whose path it names.
  app.get(`${ACCOUNT_PATH}/deliveries`, (c) => {
    const eventId = c.req.query("eventId")?.trim();
    return c.redirect(eventId ? `${ACCOUNT_PATH}/deliveries/${encodeURIComponent(eventId)}` : ACCOUNT_PATH, 303);
  });

  app.get(
    `${ACCOUNT_PATH}/deliveries/:eventId`,
    viewed(
      deps,
      async (c, { account }) => {
        const history = await readableHistory(sql(), account, (c.req.param("eventId") as string).toLowerCase());
        return page(c, <DeliveryHistoryPage history={history} />);
      },
      {},
      accountPage,
    ),
  );

  registerBatchPages(app, deps, accountPage);
  registerAdminPages(app, deps, accountPage);
}
