import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Account } from "../../streams/account-state.js";
import { IDEMPOTENCY_KEY, REFERENCE_TYPES } from "../../streams/batch.js";
import {
  canonicalFixtureFor,
  canonicalFixtureRequestSchema,
  mappingRequestSchema,
  resubmissionRequestSchema,
} from "../batch-api/amendments.js";
import { batchLimit } from "../batch-api/batches.js";
import { reviewRequestSchema } from "../batch-api/reviews.js";
import { mayAdminister, mayResolve, mayResubmit, mayReview, maySend, visibleTo } from "../batches/access.js";
import { type BatchView, findBatch, findBatchReport, reportItems } from "../batches/queries.js";
import { JsonTooDeep, parseJson } from "../bounded-json.js";
import { mapBatchReferences, resubmitBatchItems } from "../commands/batches/amendments.js";
import { receiveBatch } from "../commands/batches/handlers.js";
import { publishBatch, reviewBatch } from "../commands/batches/publication.js";
import type { Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { application, type Caller, commandContext, settled } from "../http/authentication.js";
import { ApiError, asApiError } from "../http/errors.js";
import { admitKey } from "../http/rate-limits.js";
import { refuseUnstorable } from "../http/validation.js";
import { CSV_MEDIA_TYPE } from "../ingest/batches/encodings.js";
import { type Intake, jsonPackage, tablePackage } from "../ingest/batches/intake.js";
import { XLSX_MEDIA_TYPE } from "../ingest/batches/xlsx.js";
import { readModels } from "../read-api/params.js";
import { FIXTURE_READ_MODELS } from "../submission-api/submissions.js";
import type { Outcome } from "./outcome.js";
import { BatchPage } from "./pages/batch.js";
import { NotFoundPage } from "./pages/not-found.js";
import { reloadWanted } from "./reloading.js";
import { openReferences, type Place, placeOf } from "./requirements.js";
import { ACCOUNT_PATH } from "./session.js";
import {
  formBody,
  formOf,
  invalidField,
  numeric,
  page,
  posted,
  type SignedInPage,
  valuesOf,
  viewed,
} from "./signed-in.js";

/**
 * A submitter's and a reviewer's pages of a batch (docs/web.md): sending a package, its
 * report, mapping its references, replacing its items, the decision on its accepted items
 * and their publication. Each form calls the command the API's operation calls.
 */

/** The batch routes, for whoever must tell them from the API's operations. */
export const BATCH_ROUTES = [
  `POST ${ACCOUNT_PATH}/batches`,
  `GET ${ACCOUNT_PATH}/batches/:batchReference`,
  `POST ${ACCOUNT_PATH}/batches/:batchReference/mappings`,
  `POST ${ACCOUNT_PATH}/batches/:batchReference/resubmissions`,
  `POST ${ACCOUNT_PATH}/batches/:batchReference/canonical-fixtures`,
  `POST ${ACCOUNT_PATH}/batches/:batchReference/review`,
  `POST ${ACCOUNT_PATH}/batches/:batchReference/publication`,
] as const;

/** Items a batch page lists; the download has them all. */
const SHOWN_ITEMS = 200;
/** Unresolved items read for the references to resolve: each names a reference or a few. */
const READ_UNRESOLVED = 5_000;

const NOTICES = {
  mapped: "Mapped: the batch is being validated again.",
  made: "The fixture is made: the batch is being validated again with it.",
  replaced: "Replaced: the batch is being validated again.",
  reviewed: "The decision is recorded.",
  published: "Published: the approved items are in the ledger.",
} as const;

/** Whether `check` lets the caller do something (it throws when not). */
const allowed = (check: () => void) => {
  try {
    check();
    return true;
  } catch {
    return false;
  }
};

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

export function registerBatchPages(app: Router, deps: AppDependencies, accountPage: SignedInPage) {
  const sql = readModels(deps);
  const stores = () => ({ store: application(deps).store, sql: sql() });

  app.post(
    `${ACCOUNT_PATH}/batches`,
    posted(
      deps,
      async (c, { account }) => {
        maySend(account);
        await admitKey(deps, c, account.accountId, "batches", batchLimit(deps));
        const form = await formOf(c);
        const file = form.package;
        if (!(file instanceof File) || file.size === 0)
          throw new ApiError("VALIDATION_FAILED", "Choose a package file", [], 422);
        const idempotencyKey = form.idempotencyKey;
        // The API's Idempotency-Key is a header, refused with 400.
        if (typeof idempotencyKey !== "string" || !IDEMPOTENCY_KEY.test(idempotencyKey))
          throw invalidField("idempotencyKey", "1 to 255 visible ASCII characters", 400);
        const services = application(deps);
        const receipt = await receiveBatch(
          { store: services.store, sql: sql() },
          { sender: account, idempotencyKey, intake: await intakeOf(file) },
          commandContext(c),
        );
        await services.projections?.waitFor(["batches"], receipt.position);
        return c.redirect(`${ACCOUNT_PATH}/batches/${receipt.batchReference}`, 303);
      },
      accountPage,
    ),
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
    const { account } = caller;
    const resolver = allowed(() => mayResolve(account, batch));
    const [items, unresolved] = await Promise.all([
      reportItems(sql(), reference, {}, { take: SHOWN_ITEMS }),
      batch.status === "staged" && resolver
        ? reportItems(sql(), reference, { outcome: "unresolved" }, { take: READ_UNRESOLVED })
        : [],
    ]);
    return page(
      c,
      <BatchPage
        batch={batch}
        items={items}
        reviewer={allowed(() => mayReview(account, batch))}
        resolver={resolver}
        sender={allowed(() => mayResubmit(account, batch))}
        administrator={allowed(() => mayAdminister(account, batch))}
        references={openReferences(unresolved)}
        outcome={outcome}
        reload={status === 200 && reloadWanted(c)}
      />,
      status,
    );
  }

  app.get(`${ACCOUNT_PATH}/batches/:batchReference`, viewed(deps, batchPage, NOTICES, batchPage));

  /**
   * A form on a batch the caller can see (anyone else gets the page that does not exist), its
   * refusals shown on the batch's page; `may` refuses those the API's operation refuses first.
   */
  const onBatch = (
    act: (c: Context, account: Account, batchReference: string) => Promise<keyof typeof NOTICES>,
    may: (account: Account, batch: BatchView) => void = () => {},
  ) =>
    posted(
      deps,
      async (c, { account }) => {
        const batchReference = c.req.param("batchReference") as string;
        may(account, visibleTo(account, await findBatch(sql(), batchReference)));
        const done = await act(c, account, batchReference);
        return c.redirect(`${ACCOUNT_PATH}/batches/${batchReference}?done=${done}`, 303);
      },
      batchPage,
    );
  const reviewing = (act: Parameters<typeof onBatch>[0]) => onBatch(act, mayReview);

  app.post(
    `${ACCOUNT_PATH}/batches/:batchReference/review`,
    reviewing(async (c, account, batchReference) => {
      const form = await formOf(c);
      const ticked = await valuesOf(c, "ordinals");
      if (form.items === "all" && ticked.length > 0)
        throw invalidField(
          "items",
          "Every accepted item is chosen, and some items are ticked: choose one or the other",
        );
      if (form.items === "chosen" && ticked.length === 0)
        throw invalidField("ordinals", "Choose at least one item in the table");
      const { decision, reason, items } = formBody(reviewRequestSchema, {
        decision: form.decision,
        reason: form.reason,
        items: form.items === "chosen" ? ticked.map(numeric) : form.items,
      });
      const services = application(deps);
      const outcome = await reviewBatch(
        { store: services.store, sql: sql() },
        batchReference,
        { reviewerAccountId: account.accountId, decision, reason, items },
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

  app.post(
    `${ACCOUNT_PATH}/batches/:batchReference/mappings`,
    onBatch(async (c, account, batchReference) => {
      const form = await formOf(c);
      const other = typeof form.otherId === "string" ? form.otherId.trim() : "";
      const type = REFERENCE_TYPES.find((t) => t === form.referenceType);
      if (other && !type) throw invalidField("referenceType", `One of ${REFERENCE_TYPES.join(", ")}`);
      const candidate = other ? `app:${type}:${other}` : form.candidate;
      const { mappings } = formBody(mappingRequestSchema, {
        mappings: (await placesOf(c)).map((place) => ({ ...place, candidate })),
      });
      const outcome = await mapBatchReferences(
        stores(),
        { batchReference, account, mappings },
        { ...commandContext(c), actor: account.accountId },
      );
      await settled(application(deps), outcome, ["batches"]);
      return "mapped";
    }),
  );

  app.post(
    `${ACCOUNT_PATH}/batches/:batchReference/canonical-fixtures`,
    onBatch(async (c, account, batchReference) => {
      const [place, ...more] = await placesOf(c);
      if (!place || more.length > 0) throw invalidField("place", "The place of one fixture");
      const request = formBody(canonicalFixtureRequestSchema, place);
      const context = { ...commandContext(c), actor: account.accountId };
      const outcome = await canonicalFixtureFor(deps, { batchReference, account, request }, context);
      await settled(application(deps), outcome, ["batches"]);
      return "made";
    }),
  );

  app.post(
    `${ACCOUNT_PATH}/batches/:batchReference/resubmissions`,
    onBatch(async (c, account, batchReference) => {
      const form = await formOf(c);
      const { items } = formBody(resubmissionRequestSchema, {
        items: [{ ordinal: numeric(form.ordinal), event: eventOf(form.event) }],
      });
      const outcome = await resubmitBatchItems(
        stores(),
        { batchReference, account, items },
        { ...commandContext(c), actor: account.accountId },
      );
      await settled(application(deps), outcome, ["batches"]);
      return "replaced";
    }),
  );
}

/** The places of the report a form names (`place`, repeated). */
async function placesOf(c: Context): Promise<Place[]> {
  return (await valuesOf(c, "place")).map((value) => {
    const place = typeof value === "string" ? placeOf(value) : undefined;
    if (!place) throw invalidField("place", "A place of the report");
    return place;
  });
}

/** A replacement delivery as typed: JSON, else 422 naming the field (the API's schema judges the rest). */
function eventOf(text: unknown): unknown {
  if (typeof text !== "string" || text.trim() === "") throw invalidField("event", "The delivery, as JSON");
  try {
    return parseJson(text);
  } catch (error) {
    throw invalidField("event", error instanceof JsonTooDeep ? error.message : "Not JSON");
  }
}
