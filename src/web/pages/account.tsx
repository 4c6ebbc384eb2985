import type { AccountView } from "../../accounts/queries.js";
import type { BatchView } from "../../batches/queries.js";
import type { Competition } from "../../read-api/schemas/reference.js";
import { minute } from "../format.js";
import { Layout } from "../layout.js";
import { type Outcome, Outcomes } from "../outcome.js";
import { PACKAGE_CHECK_PATH } from "../scripts.js";
import { Table } from "../table.js";

export type AccountPageProps = {
  user: AccountView;
  competitions: readonly Competition[];
  batches: readonly BatchView[];
  /** Pending access requests, for an administrator. */
  requests: readonly AccountView[];
  /** The idempotency key of the upload form: sending the same form twice stores one batch. */
  uploadKey: string;
  outcome: Outcome;
};

export const ROLE = { viewer: "viewer", submitter: "submitter", admin: "administrator" } as const;

/** A signed-in user's page: who they are, then what their role lets them do. */
export function AccountPage({ user, competitions, batches, requests, uploadKey, outcome }: AccountPageProps) {
  const named = new Map(competitions.map((c) => [c.competitionId, c.name]));
  const scope = user.competitionIds.map((id) => named.get(id) ?? id);
  const sends = user.role === "submitter" || user.role === "admin";
  return (
    <Layout title="Your account" script={sends ? PACKAGE_CHECK_PATH : undefined}>
      <h1>{user.displayName}</h1>
      <p class="lede">
        Signed in as {ROLE[user.role]}
        {user.role === "submitter" && scope.length > 0 ? ` for ${scope.join(", ")}` : ""}.
      </p>
      <form method="post" action="/account/sign-out">
        <button type="submit" class="secondary">
          Sign out
        </button>
      </form>
      <Outcomes outcome={outcome} />
      {user.role === "viewer" && <AccessRequest user={user} competitions={competitions} />}
      {sends && <Upload uploadKey={uploadKey} />}
      {sends && <Batches batches={batches} named={named} everyone={user.role === "admin"} />}
      {sends && <DeliveryLookup />}
      {user.role === "admin" && <Requests requests={requests} />}
      {user.role === "admin" && <Administration />}
    </Layout>
  );
}

function AccessRequest({ user, competitions }: { user: AccountView; competitions: readonly Competition[] }) {
  if (user.approvalState === "pending")
    return (
      <section>
        <h2>Submitter access</h2>
        <p>
          Your request to submit for {user.requestedCompetition?.name ?? "a competition"} waits for an administrator.
        </p>
      </section>
    );
  return (
    <section>
      <h2>Submitter access</h2>
      {user.approvalState === "rejected" && <p>Your last request was rejected; you may ask again.</p>}
      <form class="panel" method="post" action="/account/access-request">
        <label for="competitionId">Competition you would submit data for</label>
        <select id="competitionId" name="competitionId" required>
          {competitions.map((c) => (
            <option value={c.competitionId}>{c.name}</option>
          ))}
        </select>
        <button type="submit">Request access</button>
      </form>
    </section>
  );
}

function Upload({ uploadKey }: { uploadKey: string }) {
  return (
    <section>
      <h2>Send a batch package</h2>
      <form class="panel" method="post" action="/account/batches" enctype="multipart/form-data" data-package-check>
        <p>
          One package file: JSON, CSV or XLSX, contract 1.0 or 1.1, at most 1 MB. It is stored at once and validated in
          the background; its report lists every delivery's outcome.
        </p>
        <input type="hidden" name="idempotencyKey" value={uploadKey} />
        <label for="package">Package file</label>
        <input
          id="package"
          name="package"
          type="file"
          required
          accept=".json,.csv,.xlsx"
          aria-describedby="package-check"
        />
        <div id="package-check" class="check" aria-live="polite" />
        <button type="submit">Send</button>
      </form>
    </section>
  );
}

function Batches({
  batches,
  named,
  everyone,
}: {
  batches: readonly BatchView[];
  named: ReadonlyMap<string, string>;
  everyone: boolean;
}) {
  return (
    <section>
      <h2>{everyone ? "Batches" : "Your batches"}</h2>
      {batches.length === 0 ? (
        <p class="empty">No batch yet.</p>
      ) : (
        <Table
          caption={everyone ? "Every batch, newest first" : "Your batches, newest first"}
          columns={[{ text: "Package" }, { text: "Competition" }, { text: "Status" }, "Items", "Accepted", "Received"]}
        >
          <tbody>
            {batches.map((b) => (
              <tr>
                <th scope="row" class="text">
                  <a href={`/account/batches/${b.batchReference}`}>{b.packageId}</a>
                </th>
                <td class="text">{named.get(b.competitionId) ?? b.competitionId}</td>
                <td class="text">{b.status.replace("_", " ")}</td>
                <td>{b.progress.itemsTotal ?? "…"}</td>
                <td>{b.counts.accepted}</td>
                <td>{minute(b.receivedAt)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

function Requests({ requests }: { requests: readonly AccountView[] }) {
  return (
    <section>
      <h2>Access requests</h2>
      {requests.length === 0 ? (
        <p class="empty">No request waits for a decision.</p>
      ) : (
        <Table
          caption="Requests waiting, oldest first"
          columns={[{ text: "User" }, { text: "Competition" }, { text: "Decision" }]}
        >
          <tbody>
            {requests.map((r) => (
              <tr>
                <th scope="row" class="text">
                  {r.displayName}
                </th>
                <td class="text">{r.requestedCompetition?.name ?? r.requestedCompetition?.competitionId}</td>
                <td class="text">
                  <form class="inline" method="post" action={`/account/users/${r.accountId}/approval`}>
                    <button type="submit" aria-label={`Approve ${r.displayName}`}>
                      Approve
                    </button>
                  </form>{" "}
                  <form class="inline" method="post" action={`/account/users/${r.accountId}/rejection`}>
                    <button type="submit" class="secondary" aria-label={`Reject ${r.displayName}`}>
                      Reject
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

/** A delivery's history by its event id (as a batch's report and the API's reads give it). */
function DeliveryLookup() {
  return (
    <section>
      <h2>A delivery's history</h2>
      <form class="panel" method="get" action="/account/deliveries">
        <label for="eventId">Event id of the delivery</label>
        <input id="eventId" name="eventId" required maxlength={36} placeholder="e.g. 0b0c1c4e-…" />
        <button type="submit">Show its history</button>
      </form>
    </section>
  );
}

function Administration() {
  return (
    <section>
      <h2>Administration</h2>
      <ul>
        <li>
          <a href="/account/users">Users</a>: roles, submitters' scopes, promotion
        </li>
        <li>
          <a href="/account/api-consumers">API consumers</a>: keys, limits and usage
        </li>
        <li>
          <a href="/account/releases">Dataset releases</a>: publish a version of the data
        </li>
      </ul>
    </section>
  );
}
