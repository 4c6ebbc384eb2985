import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { submitterAccessDecisionSchema } from "../account-api/submitter-access.js";
import { listActiveAccounts } from "../accounts/queries.js";
import {
  changeRole,
  decideSubmitterAccess,
  rejectSubmitterAccess,
  type SubmitterAccessDecision,
} from "../commands/accounts/handlers.js";
import { ConsumerNotFound } from "../commands/consumers/errors.js";
import { issueConsumer, revokeKey, rotateKeys } from "../commands/consumers/handlers.js";
import { requestRelease } from "../commands/releases/handlers.js";
import { CONSUMER_BOUNDS, consumerIssueBody, consumerWithNewKey } from "../consumer-api/admin-consumers.js";
import { numericIdsHook, numericPathId } from "../consumer-api/params.js";
import { findOwnedConsumer, listOwnedConsumers } from "../consumers/queries.js";
import type { Router } from "../http/api.js";
import { type AppDependencies, secretOf } from "../http/app.js";
import {
  application,
  type Caller,
  commandContext,
  notAnAdministrator,
  requireAdmin,
  settled,
} from "../http/authentication.js";
import { notFound } from "../http/errors.js";
import { readModels } from "../read-api/params.js";
import { listCompetitions } from "../read-api/queries/reference.js";
import { versionField } from "../release-api/schemas.js";
import { findJob, listReleases } from "../releases/queries.js";
import { utcDate } from "../usage/dates.js";
import { usageSummary } from "../usage/summary.js";
import { ConsumerUsagePage } from "./pages/consumer-usage.js";
import { ConsumersPage, IssuedKeyPage } from "./pages/consumers.js";
import { ReleaseJobPage, ReleaseRequestPage } from "./pages/release-admin.js";
import { UsersPage } from "./pages/users.js";
import { reloadWanted } from "./reloading.js";
import { ACCOUNT_PATH } from "./session.js";
import {
  formBody,
  formOf,
  invalidField,
  numeric,
  page,
  posted,
  problemOf,
  type SignedInPage,
  segmentOf,
  valuesOf,
  viewed,
} from "./signed-in.js";

/**
 * The administrators' pages (docs/web.md): users, API consumers with their keys and usage,
 * and dataset releases. Each form calls the command the API's operation calls and each page
 * reads through the API's queries; anyone but an administrator is refused as the API
 * refuses them (403), on the page.
 */

const USERS = `${ACCOUNT_PATH}/users`;
const CONSUMERS = `${ACCOUNT_PATH}/api-consumers`;
const RELEASES = `${ACCOUNT_PATH}/releases`;

/** The administrators' routes, for whoever must tell them from the API's operations. */
export const ADMIN_ROUTES = [
  `POST ${USERS}/:userId/approval`,
  `POST ${USERS}/:userId/rejection`,
  `GET ${USERS}`,
  `POST ${USERS}/:userId/scope`,
  `POST ${USERS}/:userId/revocation`,
  `POST ${USERS}/:userId/promotion`,
  `GET ${CONSUMERS}`,
  `POST ${CONSUMERS}`,
  `GET ${CONSUMERS}/:consumerId`,
  `POST ${CONSUMERS}/:consumerId/keys/rotation`,
  `POST ${CONSUMERS}/:consumerId/keys/:keyId/revocation`,
  `GET ${RELEASES}`,
  `POST ${RELEASES}`,
  `GET ${RELEASES}/jobs/:jobId`,
] as const;

/** Users a page lists; the API pages through them all. */
const SHOWN_USERS = 500;

const USER_NOTICES = {
  scoped: "The scope is changed.",
  revoked: "Submitter access is revoked: the user is a viewer again.",
  promoted: "The user is an administrator now.",
} as const;
/** What the account page, where requests wait, says of a decision on one. */
export const REQUEST_NOTICES = {
  approved: "The request was approved.",
  rejected: "The request was rejected.",
} as const;
const CONSUMER_NOTICES = { "key-revoked": "The key is revoked: it no longer works." } as const;

/** A consumer or key id of the path, as the API takes it: a positive whole number, else 422 naming it. */
function idOf(c: Context, name: string): number {
  const result = z.object({ [name]: numericPathId(name, name) }).safeParse({ [name]: c.req.param(name) });
  numericIdsHook({ target: "param", ...result });
  return (result.data as Record<string, number>)[name] as number;
}

export function registerAdminPages(app: Router, deps: AppDependencies, accountPage: SignedInPage) {
  const sql = readModels(deps);
  const competitions = async () =>
    (await listCompetitions(sql(), { direction: "asc", take: 500 })).map((row) => row.item);

  /**
   * An administrator's page. Anyone else is refused it (403) on their account page: the
   * page of a refusal must be one they may see.
   */
  const adminOnly =
    (show: SignedInPage): SignedInPage =>
    (c, caller, outcome, status) =>
      caller.account.role === "admin"
        ? show(c, caller, outcome, status)
        : accountPage(c, caller, { problem: problemOf(notAnAdministrator()) }, 403);

  /** A form of an administrator's page: refused to anyone else, and its refusals shown on `refusalPage`. */
  const adminForm = (act: (c: Context, caller: Caller) => Promise<Response>, refusalPage: SignedInPage) =>
    posted(
      deps,
      (c, caller) => {
        requireAdmin(caller.account);
        return act(c, caller);
      },
      refusalPage,
    );

  const usersPage: SignedInPage = adminOnly(async (c, { account }, outcome, status = 200) => {
    const [users, named] = await Promise.all([listActiveAccounts(sql(), { take: SHOWN_USERS + 1 }), competitions()]);
    return page(
      c,
      <UsersPage
        users={users.slice(0, SHOWN_USERS)}
        more={users.length > SHOWN_USERS}
        competitions={named}
        self={account.accountId}
        outcome={outcome}
      />,
      status,
    );
  });
  app.get(USERS, viewed(deps, usersPage, USER_NOTICES, usersPage));

  /**
   * A change to the path's user, then the page the form came from saying it is done: the
   * users page, or the account page where pending requests are decided.
   */
  const userChange = (
    change: (c: Context, actorId: string, accountId: string) => Promise<Parameters<typeof settled>[1]>,
    done: keyof typeof USER_NOTICES | keyof typeof REQUEST_NOTICES,
    from: { path: string; page: SignedInPage } = { path: USERS, page: usersPage },
  ) =>
    adminForm(async (c, { account }) => {
      const accountId = segmentOf(c.req.param("userId"), "userId");
      await settled(application(deps), await change(c, account.accountId, accountId));
      return c.redirect(`${from.path}?done=${done}`, 303);
    }, from.page);

  const decide = (c: Context, actorId: string, accountId: string, decision: SubmitterAccessDecision) =>
    decideSubmitterAccess(application(deps).store, { actorId, accountId, decision }, commandContext(c));

  const onAccountPage = { path: ACCOUNT_PATH, page: accountPage };
  app.post(
    `${USERS}/:userId/approval`,
    userChange((c, actorId, accountId) => decide(c, actorId, accountId, { approved: true }), "approved", onAccountPage),
  );
  app.post(
    `${USERS}/:userId/rejection`,
    userChange(
      (c, actorId, accountId) =>
        rejectSubmitterAccess(application(deps).store, { actorId, accountId }, commandContext(c)),
      "rejected",
      onAccountPage,
    ),
  );

  app.post(
    `${USERS}/:userId/scope`,
    userChange(async (c, actorId, accountId) => {
      const competitionIds = await valuesOf(c, "competitionIds");
      return decide(c, actorId, accountId, formBody(submitterAccessDecisionSchema, { approved: true, competitionIds }));
    }, "scoped"),
  );
  app.post(
    `${USERS}/:userId/revocation`,
    userChange((c, actorId, accountId) => decide(c, actorId, accountId, { approved: false }), "revoked"),
  );
  app.post(
    `${USERS}/:userId/promotion`,
    userChange(
      (c, actorId, accountId) =>
        changeRole(application(deps).store, { actorId, accountId, role: "admin" }, commandContext(c)),
      "promoted",
    ),
  );

  const consumersPage: SignedInPage = adminOnly(async (c, { account }, outcome, status = 200) => {
    const consumers = await listOwnedConsumers(sql(), account.accountId, { take: 500 });
    return page(c, <ConsumersPage consumers={consumers} bounds={CONSUMER_BOUNDS} outcome={outcome} />, status);
  });
  app.get(CONSUMERS, viewed(deps, consumersPage, CONSUMER_NOTICES, consumersPage));

  /** The page showing a new key once: never cached, as the API's answer holding one. */
  const issuedKey = async (c: Context, outcome: Awaited<ReturnType<typeof rotateKeys>>, status: 200 | 201) =>
    page(c, <IssuedKeyPage consumer={await consumerWithNewKey(deps, outcome)} apiKey={outcome.apiKey} />, status);

  app.post(
    CONSUMERS,
    adminForm(async (c, { account }) => {
      const form = await formOf(c);
      const settings = formBody(consumerIssueBody, {
        name: form.name,
        rateLimitPerMinute: numeric(form.rateLimitPerMinute),
        dailyQuota: numeric(form.dailyQuota),
      });
      const outcome = await issueConsumer(
        application(deps).store,
        sql(),
        secretOf(deps),
        { ownerAccountId: account.accountId, settings },
        commandContext(c),
      );
      return issuedKey(c, outcome, 201);
    }, consumersPage),
  );

  app.post(
    `${CONSUMERS}/:consumerId/keys/rotation`,
    adminForm(async (c, { account }) => {
      const consumerId = idOf(c, "consumerId");
      // Every client of the consumer stops working: asked for in so many words, not by a stray click.
      if ((await formOf(c)).confirm !== "yes")
        throw invalidField("confirm", "Tick the box: every active key stops working");
      const outcome = await rotateKeys(
        application(deps).store,
        secretOf(deps),
        { ownerAccountId: account.accountId, consumerId },
        commandContext(c),
      );
      return issuedKey(c, outcome, 200);
    }, consumersPage),
  );

  app.post(
    `${CONSUMERS}/:consumerId/keys/:keyId/revocation`,
    adminForm(async (c, { account }) => {
      const ids = { consumerId: idOf(c, "consumerId"), keyId: idOf(c, "keyId") };
      const outcome = await revokeKey(
        application(deps).store,
        { ownerAccountId: account.accountId, ...ids },
        commandContext(c),
      );
      await settled(application(deps), outcome, ["consumers"]);
      return c.redirect(`${CONSUMERS}?done=key-revoked`, 303);
    }, consumersPage),
  );

  app.get(
    `${CONSUMERS}/:consumerId`,
    viewed(
      deps,
      adminOnly(async (c, { account }) => {
        const consumerId = idOf(c, "consumerId");
        const consumer = await findOwnedConsumer(sql(), account.accountId, consumerId);
        if (!consumer) throw new ConsumerNotFound(consumerId);
        // This process's buffered requests written first, as the API's usage read does.
        await deps.usage?.flush();
        const usage = await usageSummary(sql(), consumerId, utcDate(new Date()));
        return page(c, <ConsumerUsagePage consumer={consumer} {...usage} />);
      }),
      {},
      consumersPage,
    ),
  );

  const releasesPage: SignedInPage = adminOnly(async (c, _caller, outcome, status = 200) => {
    const [latest] = await listReleases(sql(), { take: 1 });
    return page(c, <ReleaseRequestPage latest={latest?.version} outcome={outcome} />, status);
  });
  app.get(RELEASES, viewed(deps, releasesPage, {}, releasesPage));

  app.post(
    RELEASES,
    adminForm(async (c, { account }) => {
      const { version } = formBody(z.object({ version: versionField }), { version: (await formOf(c)).version });
      const services = application(deps);
      const { outcome, state } = await requestRelease(services.store, version, {
        ...commandContext(c),
        actor: account.accountId,
      });
      await services.projections?.waitFor(["releases"], outcome.position);
      if (state.job.status === "published") return c.redirect("/releases", 303);
      return c.redirect(`${RELEASES}/jobs/${state.job.jobId}`, 303);
    }, releasesPage),
  );

  app.get(
    `${RELEASES}/jobs/:jobId`,
    viewed(
      deps,
      adminOnly(async (c) => {
        const jobId = c.req.param("jobId") as string;
        const job = await findJob(sql(), jobId);
        if (!job) throw notFound("dataset release job");
        return page(c, <ReleaseJobPage job={job} reload={reloadWanted(c)} />);
      }),
      {},
      releasesPage,
    ),
  );
}
