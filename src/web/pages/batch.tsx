import type { BatchView, ReportItem, ReportSummary } from "../../batches/queries.js";
import { Layout } from "../layout.js";
import { type Outcome, Outcomes } from "../outcome.js";
import { RELOAD_SECONDS, ReloadControl } from "../reloading.js";
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
  outcome,
  reload,
}: {
  batch: BatchView & ReportSummary;
  items: readonly ReportItem[];
  reviewer: boolean;
  outcome: Outcome;
  /** The reader lets the page reload itself while the batch is validated. */
  reload: boolean;
}) {
  const working = WORKING.has(batch.status);
  const { counts } = batch;
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
      {working && <ReloadControl reloading={reload} />}
      <Outcomes outcome={outcome} />
      {!working && <Review batch={batch} reviewer={reviewer} />}
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
          caption={items.length < (batch.progress.itemsTotal ?? 0) ? `The first ${items.length} items` : "Every item"}
          columns={["#", { text: "Where" }, { text: "Outcome" }, { text: "Why" }]}
        >
          <tbody>
            {items.map((i) => (
              <tr>
                <td>{i.ordinal + 1}</td>
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
      <p>
        The whole report, every item, is a download of the API (with a bearer token):{" "}
        <code>GET /api/v1/batches/{batch.batchReference}/report/download</code>.
      </p>
    </Layout>
  );
}

/** Where the batch's accepted items stand, and a reviewer's forms: decide on them all, then publish the approved. */
function Review({ batch, reviewer }: { batch: BatchView; reviewer: boolean }) {
  const { review, publication, counts } = batch;
  if (counts.accepted === 0) return null;
  return (
    <section>
      <h2>Review and publication</h2>
      <p id="review-state">
        {publication
          ? `Published ${publication.publishedAt.toISOString().slice(0, 16).replace("T", " ")}: ${publication.published} in the ledger, ${publication.refused} refused.`
          : `Of ${counts.accepted} accepted items: ${review.approved} approved, ${review.rejected} rejected, ${review.undecided} undecided.`}
      </p>
      {reviewer && !publication && (
        <form class="panel" method="post" action={`/account/batches/${batch.batchReference}/review`}>
          <fieldset>
            <legend>Decision on every accepted item</legend>
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
