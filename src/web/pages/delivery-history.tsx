import type { DeliveryHistory, RevisionState } from "../../read-api/queries/delivery-history.js";
import { minute } from "../format.js";
import { Layout } from "../layout.js";
import { fixturePage } from "../paths.js";
import { Table } from "../table.js";

/** The fields of a delivery's state that differ between two revisions, each as before → after. */
function changes(before: RevisionState, after: RevisionState): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys]
    .filter(
      (key) => JSON.stringify(before[key as keyof RevisionState]) !== JSON.stringify(after[key as keyof RevisionState]),
    )
    .map(
      (key) =>
        `${key}: ${JSON.stringify(before[key as keyof RevisionState]) ?? "none"} → ${JSON.stringify(after[key as keyof RevisionState]) ?? "none"}`,
    );
}

/** How a delivery came to be: who recorded it, then each correction with who, when, why and what changed. */
export function DeliveryHistoryPage({ history }: { history: DeliveryHistory }) {
  const { recorded } = history;
  return (
    <Layout title={`Delivery ${recorded.state.ballNumber ?? history.eventId}`}>
      <p class="crumbs">
        <a href="/account">Your account</a> · <a href={fixturePage(history.fixtureId)}>the fixture</a>
      </p>
      <h1>Delivery {recorded.state.ballNumber ?? ""} history</h1>
      <p class="lede">
        Event <code>{history.eventId}</code>, revision {history.currentRevision}. Recorded by{" "}
        {recorded.recordedBy.name ?? recorded.recordedBy.id} at {minute(recorded.recordedAt)}.
      </p>
      {history.corrections.length === 0 ? (
        <p class="empty">Never corrected.</p>
      ) : (
        <Table
          caption="Corrections, oldest first"
          columns={["Revision", { text: "By" }, { text: "When" }, { text: "Why" }, { text: "What changed" }]}
        >
          <tbody>
            {history.corrections.map((c) => (
              <tr>
                <td>
                  {c.previousRevision} → {c.revision}
                </td>
                <td class="text">
                  {c.requestedBy.name ?? c.requestedBy.id}
                  {c.review ? ", approved in review" : ""}
                </td>
                <td class="text">{minute(c.correctedAt)}</td>
                <td class="text">{c.reason}</td>
                <td class="text">
                  <ul>
                    {changes(c.previousState, c.resultingState).map((change) => (
                      <li>
                        <code>{change}</code>
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Layout>
  );
}
