import type { BatchView, ReportItem, ReportSummary } from "../../batches/queries.js";
import { Layout } from "../layout.js";
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

/** A batch's status and its report: the rules broken, the faults outside any delivery, and each item's outcome. */
export function BatchPage({
  batch,
  items,
  shown,
}: {
  batch: BatchView & ReportSummary;
  items: readonly ReportItem[];
  shown: number;
}) {
  const working = WORKING.has(batch.status);
  const { counts } = batch;
  return (
    <Layout title={`Batch ${batch.packageId}`} refreshSeconds={working ? 2 : undefined}>
      <p class="crumbs">
        <a href="/account">Your account</a>
      </p>
      <h1>Batch {batch.packageId}</h1>
      <p class="lede" role="status">
        {working
          ? `Validating: ${batch.progress.itemsDone} of ${batch.progress.itemsTotal ?? "?"} items so far. This page reloads itself.`
          : `Status: ${batch.status.replace("_", " ")}. ${counts.accepted} accepted, ${counts.rejected} rejected, ${counts.unresolved} unresolved, ${counts.duplicate} duplicate, ${counts.conflicting} conflicting.`}
      </p>
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
          caption={shown < (batch.progress.itemsTotal ?? 0) ? `The first ${shown} items` : "Every item"}
          columns={["#", { text: "Where" }, { text: "Outcome" }, { text: "Why" }]}
        >
          <tbody>
            {items.map((i) => (
              <tr>
                <td>{i.ordinal + 1}</td>
                <td class="text">{where(i)}</td>
                <td class="text">{i.outcome}</td>
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
