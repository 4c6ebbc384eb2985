import type { BatchView, ReportItem, ReportSummary } from "../../batches/queries.js";
import { minute } from "../format.js";
import { Layout } from "../layout.js";
import { type Outcome, Outcomes } from "../outcome.js";
import { RELOAD_SECONDS, ReloadControl } from "../reloading.js";
import { MAX_MAPPED_PLACES, type OpenReference, placeValue } from "../requirements.js";
import { Table } from "../table.js";

/** Statuses validation has not finished with: the page reloads itself until it has. */
const WORKING = new Set(["received", "validating"]);

const where = (i: ReportItem) =>
  [
    i.row !== undefined ? `row ${i.row}` : i.path,
    i.context.innings !== null ? `innings ${i.context.innings}` : "",
    i.context.ball ? `ball ${i.context.ball}` : "",
  ]
    .filter(Boolean)
    .join(", ");

/**
 * A batch's status and its report: the rules broken, the faults outside any delivery, and
 * each item's outcome; for a reviewer (an administrator who did not send it), the decision
 * on its accepted items and their publication.
 */
export function BatchPage({
  batch,
  items,
  reviewer,
  resolver,
  sender,
  administrator,
  references,
  outcome,
  reload,
}: {
  batch: BatchView & ReportSummary;
  items: readonly ReportItem[];
  /** An administrator who did not send it: decides on its items and publishes them. */
  reviewer: boolean;
  /** Its sender or an administrator of its competition: maps its references. */
  resolver: boolean;
  /** Its sender, who may replace its items. */
  sender: boolean;
  /** An administrator of its competition: makes a fixture the package proposes. */
  administrator: boolean;
  /** Its unresolved and ambiguous references, each with every place it occurs. */
  references: readonly OpenReference[];
  outcome: Outcome;
  /** The reader lets the page reload itself while the batch is validated. */
  reload: boolean;
}) {
  const working = WORKING.has(batch.status);
  const { counts } = batch;
  const choosing = reviewer && deciding(batch);
  const replaceable = sender && !working && !batch.publication ? items.filter(replaceableItem) : [];
  return (
    <Layout title={`Batch ${batch.packageId}`} refreshSeconds={working && reload ? RELOAD_SECONDS : undefined}>
      <p class="crumbs">
        <a href="/account">Your account</a>
      </p>
      <h1>Batch {batch.packageId}</h1>
      <p class="lede" id="batch-status" aria-live="polite">
        {working
          ? `Validating: ${batch.progress.itemsDone} of ${batch.progress.itemsTotal ?? "?"} items so far.`
          : `Status: ${batch.status.replace("_", " ")}. ${counts.accepted} accepted, ${counts.rejected} rejected, ${counts.unresolved} unresolved, ${counts.duplicate} duplicate, ${counts.conflicting} conflicting.`}
      </p>
      {working && <ReloadControl reloading={reload} path={`/account/batches/${batch.batchReference}`} />}
      <Outcomes outcome={outcome} />
      {!working && <Review batch={batch} reviewer={reviewer} />}
      {batch.status === "staged" && resolver && references.length > 0 && (
        <References batch={batch} references={references} administrator={administrator} />
      )}
      {batch.faults.length > 0 && (
        <section>
          <h2>Problems with the package</h2>
          <ul>
            {batch.faults.map((f) => (
              <li>
                <code>{f.code}</code> {f.message} ({f.path})
              </li>
            ))}
          </ul>
        </section>
      )}
      {batch.rules.length > 0 && (
        <Table caption="Rules broken" columns={[{ text: "Rule" }, "Items"]}>
          <tbody>
            {batch.rules.map((r) => (
              <tr>
                <th scope="row" class="text">
                  <code>{r.code}</code>
                </th>
                <td>{r.count}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {items.length > 0 && (
        <Table
          caption={`${items.length < (batch.progress.itemsTotal ?? 0) ? `The first ${items.length} items` : "Every item"} (numbered as the report numbers them, from 0)`}
          columns={[
            ...(choosing ? [{ text: "Choose" }] : []),
            "#",
            { text: "Where" },
            { text: "Outcome" },
            { text: "Why" },
          ]}
        >
          <tbody>
            {items.map((i) => (
              <tr>
                {choosing && (
                  <td class="text">
                    {i.outcome === "accepted" && (
                      <input
                        type="checkbox"
                        name="ordinals"
                        value={String(i.ordinal)}
                        form="review"
                        aria-label={`Choose item ${i.ordinal}`}
                      />
                    )}
                  </td>
                )}
                <td>{i.ordinal}</td>
                <td class="text">{where(i)}</td>
                <td class="text">
                  {i.publication?.status === "published" ? (
                    <a href={`/account/deliveries/${encodeURIComponent(i.publication.eventId)}`}>published</a>
                  ) : i.review ? (
                    `${i.outcome}, ${i.review.decision}`
                  ) : (
                    i.outcome
                  )}
                </td>
                <td class="text">
                  {[...i.faults.map((f) => `${f.code}: ${f.message}`), ...i.requirements.map((r) => r.code)].join("; ")}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {replaceable.length > 0 && <Resubmission batch={batch} items={replaceable} />}
      <p>
        The whole report, every item, is a download of the API (with a bearer token):{" "}
        <code>GET /api/v1/batches/{batch.batchReference}/report/download</code>.
      </p>
    </Layout>
  );
}

/** Whether the batch's accepted items are open to a decision: validated, not yet published. */
const deciding = (batch: BatchView) => batch.status === "validated" && !batch.publication;

/** An item its sender may replace: rejected by validation or review, conflicting, or unresolved. */
const replaceableItem = (i: ReportItem) =>
  i.outcome === "rejected" ||
  i.outcome === "conflicting" ||
  i.outcome === "unresolved" ||
  (i.outcome === "accepted" && i.review?.decision === "rejected");

/** Where the batch's accepted items stand, and a reviewer's forms: decide on all or the chosen ones, then publish the approved. */
function Review({ batch, reviewer }: { batch: BatchView; reviewer: boolean }) {
  const { review, publication, counts } = batch;
  if (counts.accepted === 0) return null;
  return (
    <section>
      <h2>Review and publication</h2>
      <p id="review-state">
        {publication
          ? `Published ${minute(publication.publishedAt)}: ${publication.published} in the ledger, ${publication.refused} refused.`
          : `Of ${counts.accepted} accepted items: ${review.approved} approved, ${review.rejected} rejected, ${review.undecided} undecided.`}
      </p>
      {reviewer && deciding(batch) && (
        <form class="panel" id="review" method="post" action={`/account/batches/${batch.batchReference}/review`}>
          <fieldset>
            <legend>Items decided on</legend>
            <label>
              <input type="radio" name="items" value="all" checked /> Every accepted item
            </label>{" "}
            <label>
              <input type="radio" name="items" value="chosen" /> The items chosen in the table below
            </label>
          </fieldset>
          <fieldset>
            <legend>Decision</legend>
            <label>
              <input type="radio" name="decision" value="approved" checked /> Approve
            </label>{" "}
            <label>
              <input type="radio" name="decision" value="rejected" /> Reject
            </label>
          </fieldset>
          <label for="reason">Why (recorded with each item and with what is published)</label>
          <input id="reason" name="reason" required maxlength={1000} />
          <button type="submit">Record the decision</button>
        </form>
      )}
      {reviewer && !publication && review.approved > 0 && (
        <form method="post" action={`/account/batches/${batch.batchReference}/publication`}>
          <button type="submit">Publish the {review.approved} approved</button>
        </form>
      )}
    </section>
  );
}

/** The references the batch waits on, each with a form choosing what it names at every place it occurs. */
function References({
  batch,
  references,
  administrator,
}: {
  batch: BatchView;
  references: readonly OpenReference[];
  administrator: boolean;
}) {
  return (
    <section>
      <h2>References to resolve</h2>
      <p>
        The batch is staged: these names match nothing, or more than one, of what the service holds. Choose what each
        names; the batch is then validated again.
      </p>
      {references.map((r, n) => (
        <form class="panel" method="post" action={`/account/batches/${batch.batchReference}/mappings`}>
          <p>
            <strong>{r.submitted}</strong> ({r.referenceType}), at {r.places.length} place
            {r.places.length > 1 ? "s" : ""}
            {r.places.length > MAX_MAPPED_PLACES ? `: the first ${MAX_MAPPED_PLACES} are mapped, then the rest` : ""}.
          </p>
          {r.places.slice(0, MAX_MAPPED_PLACES).map((place) => (
            <input type="hidden" name="place" value={placeValue(place)} />
          ))}
          <input type="hidden" name="referenceType" value={r.referenceType} />
          {r.candidates.length > 0 && (
            <>
              <label for={`candidate-${n}`}>{`What “${r.submitted}” names`}</label>
              <select id={`candidate-${n}`} name="candidate">
                {r.candidates.map((c) => (
                  <option value={c.candidateReference}>{c.label}</option>
                ))}
              </select>
            </>
          )}
          <label for={`other-${n}`}>
            {r.candidates.length > 0 ? `Or the id of another ${r.referenceType}` : `The id of the ${r.referenceType}`}
          </label>
          <input id={`other-${n}`} name="otherId" maxlength={200} required={r.candidates.length === 0} />
          <button type="submit">Map</button>
          {administrator && r.referenceType === "fixture" && r.candidates.length === 0 && (
            <button
              type="submit"
              class="secondary"
              formaction={`/account/batches/${batch.batchReference}/canonical-fixtures`}
              formnovalidate
            >
              Make the fixture from the package's proposal
            </button>
          )}
        </form>
      ))}
    </section>
  );
}

/** The sender's form replacing an item that cannot be published as it is with a delivery in the package's shape. */
function Resubmission({ batch, items }: { batch: BatchView; items: readonly ReportItem[] }) {
  return (
    <section>
      <h2>Replace an item</h2>
      <form class="panel" method="post" action={`/account/batches/${batch.batchReference}/resubmissions`}>
        <p>
          The replacement takes the item's place (its fixture and innings) and is validated again with the rest of the
          batch.
        </p>
        <label for="ordinal">Item</label>
        <select id="ordinal" name="ordinal">
          {items.map((i) => (
            <option value={String(i.ordinal)}>{`Item ${i.ordinal}, ${where(i) || i.path}: ${i.outcome}`}</option>
          ))}
        </select>
        <label for="event">The replacement delivery (JSON, as in the package)</label>
        <textarea id="event" name="event" rows={8} required maxlength={20000} />
        <button type="submit">Replace</button>
      </form>
    </section>
  );
}
