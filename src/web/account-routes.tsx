import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { IDEMPOTENCY_KEY } from "../../streams/batch.js";
import { findAccount, listPendingRequests } from "../accounts/queries.js";
import { BATCHES_PER_MINUTE } from "../batch-api/batches.js";
import { mayReview, visibleTo } from "../batches/access.js";
import { findBatch, findBatchReport, listBatches, reportItems } from "../batches/queries.js";
import { JsonTooDeep, parseJson } from "../bounded-json.js";
import { decideSubmitterAccess, rejectSubmitterAccess, requestSubmitterAccess } from "../commands/accounts/handlers.js";
import { receiveBatch } from "../commands/batches/handlers.js";
import { publishBatch, reviewBatch } from "../commands/batches/publication.js";
import type { Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { application, authenticate, type Caller, commandContext, settled } from "../http/authentication.js";
import { ApiError, asApiError } from "../http/errors.js";
import { admitAccount } from "../http/rate-limits.js";
import { refuseUnstorable } from "../http/validation.js";
import { InvalidToken } from "../identity/verifier.js";
import { CSV_MEDIA_TYPE } from "../ingest/batches/encodings.js";
import { type Intake, jsonPackage, tablePackage } from "../ingest/batches/intake.js";
import { XLSX_MEDIA_TYPE } from "../ingest/batches/xlsx.js";
import { readModels } from "../read-api/params.js";
import { readableHistory } from "../read-api/queries/delivery-history.js";
import { listCompetitions } from "../read-api/queries/reference.js";
import { FIXTURE_READ_MODELS } from "../submission-api/submissions.js";
import type { Outcome } from "./outcome.js";
import { AccountPage } from "./pages/account.js";
import { BatchPage } from "./pages/batch.js";
import { DeliveryHistoryPage } from "./pages/delivery-history.js";
import { NotFoundPage } from "./pages/not-found.js";
import { reloadWanted } from "./reloading.js";
import { ACCOUNT_PATH, endSession, fromThisSite, startSession } from "./session.js";
import {
  ANOTHER_SITE,
  formOf,
  fromThisMachine,
  page,
  posted,
  requireAdmin,
  type SignedInPage,
  signIn,
  textOf,
  viewed,
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
  `POST ${ACCOUNT_PATH}/users/:userId/approval`,
  `POST ${ACCOUNT_PATH}/users/:userId/rejection`,
  `POST ${ACCOUNT_PATH}/batches`,
  `GET ${ACCOUNT_PATH}/batches/:batchReference`,
  `POST ${ACCOUNT_PATH}/batches/:batchReference/review`,
  `POST ${ACCOUNT_PATH}/batches/:batchReference/publication`,
  `GET ${ACCOUNT_PATH}/deliveries`,
  `GET ${ACCOUNT_PATH}/deliveries/:eventId`,
] as const;

/** Items a batch page lists; the download has them all. */
const SHOWN_ITEMS = 200;

const NOTICES = {
  requested: "Your request was sent to the administrators.",
  approved: "The request was approved.",
  rejected: "The request was rejected.",
  reviewed: "The decision is recorded on every accepted item.",
  published: "Published: the approved items are in the ledger.",
} as const;

/** The package an uploaded file holds, read by its name's extension as POST /batches reads it by Content-Type. */
async function intakeOf(file: File): Promise<Intake> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const extension = file.name.toLowerCase().split(".").pop();
  if (extension === "csv") return tablePackage(bytes, CSV_MEDIA_TYPE);
  if (extension === "xlsx") return tablePackage(bytes, XLSX_MEDIA_TYPE);
  if (extension !== "json")
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Choose a package file ending in .json, .csv or .xlsx");
  const text = new TextDecoder().decode(bytes);
  let body: unknown;
  try {
    body = parseJson(text);
  } catch (error) {
    throw new ApiError(
      "VALIDATION_FAILED",
      error instanceof JsonTooDeep ? error.message : "The file is not JSON",
      [],
      422,
    );
  }
  refuseUnstorable("json", body);
  return jsonPackage(text, body);
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
      const form = await formOf(c);
      const devIssuer = deps.identity?.devIssuer;
      if (devIssuer) {
        if (!fromThisMachine(c, deps)) return signIn(c, deps, "Sign-in by name works only from this machine.", 403);
        const name = textOf(form.name, "name", 100);
        token = await devIssuer.issueToken({ subject: name, displayName: name });
      } else {
        token = typeof form.token === "string" ? form.token.trim() : "";
      }
      await authenticate(deps, c, token);
    } catch (error) {
      if (error instanceof InvalidToken) return signIn(c, deps, "That token is not valid here.", 401);
      const refused = asApiError(error);
      if (refused) return signIn(c, deps, refused.details?.[0]?.message ?? refused.message, refused.status);
      throw error;
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

  /** An administrator's decision on a user's pending request. */
  const decision = (decide: (actorId: string, accountId: string, c: Context) => Promise<unknown>, done: string) =>
    post(async (c, caller) => {
      requireAdmin(caller);
      const { account } = caller;
      const services = application(deps);
      const userId = textOf(c.req.param("userId"), "userId");
      const outcome = (await decide(account.accountId, userId, c)) as Parameters<typeof settled>[1];
      await settled(services, outcome);
      return c.redirect(`${ACCOUNT_PATH}?done=${done}`, 303);
    });

  app.post(
    `${ACCOUNT_PATH}/users/:userId/approval`,
    decision(
      (actorId, accountId, c) =>
        decideSubmitterAccess(
          application(deps).store,
          { actorId, accountId, decision: { approved: true } },
          commandContext(c),
        ),
      "approved",
    ),
  );
  app.post(
    `${ACCOUNT_PATH}/users/:userId/rejection`,
    decision(
      (actorId, accountId, c) =>
        rejectSubmitterAccess(application(deps).store, { actorId, accountId }, commandContext(c)),
      "rejected",
    ),
  );

  app.post(
    `${ACCOUNT_PATH}/batches`,
    post(async (c, { account }) => {
      if (account.role !== "submitter" && account.role !== "admin")
        throw new ApiError("FORBIDDEN", "Only a submitter or an administrator may send batches");
      // The API's limit on packages an account sends a minute, counted together with the API's.
      const limit = { limit: deps.limits?.batchesPerMinute ?? BATCHES_PER_MINUTE, windowMs: 60_000 };
      await admitAccount(deps, c, account.accountId, "batches", limit);
      const form = await formOf(c);
      const file = form.package;
      if (!(file instanceof File) || file.size === 0)
        throw new ApiError("VALIDATION_FAILED", "Choose a package file", [], 422);
      const idempotencyKey = form.idempotencyKey;
      if (typeof idempotencyKey !== "string" || !IDEMPOTENCY_KEY.test(idempotencyKey))
        throw new ApiError("VALIDATION_FAILED", "The form is invalid", [
          { code: "INVALID_FIELD", message: "1 to 255 visible ASCII characters", field: "idempotencyKey" },
        ]);
      const services = application(deps);
      const receipt = await receiveBatch(
        { store: services.store, sql: sql() },
        { sender: account, idempotencyKey, intake: await intakeOf(file) },
        commandContext(c),
      );
      await services.projections?.waitFor(["batches"], receipt.position);
      return c.redirect(`${ACCOUNT_PATH}/batches/${receipt.batchReference}`, 303);
    }),
  );

  /** The batch at the path, when the caller may see it (404 page otherwise), with its report's first items. */
  async function batchPage(c: Context, caller: Caller, outcome: Outcome, status: ContentfulStatusCode = 200) {
    const reference = c.req.param("batchReference") as string;
    let batch: Awaited<ReturnType<typeof findBatchReport>>;
    try {
      batch = visibleTo(caller.account, await findBatchReport(sql(), reference));
    } catch (error) {
      if (asApiError(error)) return page(c, <NotFoundPage what="batch" />, 404);
      throw error;
    }
    const items = await reportItems(sql(), reference, {}, { take: SHOWN_ITEMS });
    const reviewer = (() => {
      try {
        mayReview(caller.account, batch);
        return true;
      } catch {
        return false;
      }
    })();
    return page(
      c,
      <BatchPage batch={batch} items={items} reviewer={reviewer} outcome={outcome} reload={reloadWanted(c)} />,
      status,
    );
  }

  app.get(`${ACCOUNT_PATH}/batches/:batchReference`, viewed(deps, batchPage, NOTICES, batchPage));

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

  /** A reviewer's form on a batch: refused as the API refuses it, shown on the batch's page. */
  const reviewing = (act: (c: Context, account: Caller["account"], batchReference: string) => Promise<string>) =>
    post(async (c, { account }) => {
      const batchReference = c.req.param("batchReference") as string;
      mayReview(account, visibleTo(account, await findBatch(sql(), batchReference)));
      const done = await act(c, account, batchReference);
      return c.redirect(`${ACCOUNT_PATH}/batches/${batchReference}?done=${done}`, 303);
    }, batchPage);

  app.post(
    `${ACCOUNT_PATH}/batches/:batchReference/review`,
    reviewing(async (c, account, batchReference) => {
      const form = await formOf(c);
      const decision = form.decision === "rejected" ? "rejected" : "approved";
      const reason = textOf(form.reason, "reason", 1000);
      const services = application(deps);
      const outcome = await reviewBatch(
        { store: services.store, sql: sql() },
        batchReference,
        { reviewerAccountId: account.accountId, decision, reason, items: "all" },
        { ...commandContext(c), actor: account.accountId },
      );
      await settled(services, outcome, ["batches"]);
      return "reviewed";
    }),
  );

  app.post(
    `${ACCOUNT_PATH}/batches/:batchReference/publication`,
    reviewing(async (c, account, batchReference) => {
      const services = application(deps);
      const outcome = await publishBatch(
        { store: services.store, sql: sql() },
        { batchReference, publisher: account },
        { ...commandContext(c), actor: account.accountId },
      );
      await settled(services, outcome, [...FIXTURE_READ_MODELS, "batches"]);
      return "published";
    }),
  );
}
