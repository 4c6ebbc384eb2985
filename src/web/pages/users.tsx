import type { AccountView } from "../../accounts/queries.js";
import type { Competition } from "../../read-api/schemas/reference.js";
import { Layout } from "../layout.js";
import { type Outcome, Outcomes } from "../outcome.js";
import { Table } from "../table.js";
import { ROLE } from "./account.js";

/**
 * An administrator's users: each active account's role and scope, and what may be changed
 * on it: a submitter's competitions (or their revocation), a promotion to administrator.
 * Pending requests are decided on the account page, where they wait.
 */
export function UsersPage({
  users,
  more,
  competitions,
  self,
  outcome,
}: {
  users: readonly AccountView[];
  /** Whether more users follow the ones listed (the API lists them all). */
  more: boolean;
  competitions: readonly Competition[];
  /** The administrator looking: no one changes their own role. */
  self: string;
  outcome: Outcome;
}) {
  const named = new Map(competitions.map((c) => [c.competitionId, c.name]));
  return (
    <Layout title="Users">
      <p class="crumbs">
        <a href="/account">Your account</a>
      </p>
      <h1>Users</h1>
      <p class="lede">
        Active users, oldest account first. A submitter sends batches for the competitions of their scope; an
        administrator reviews them, manages users, keys and releases.
      </p>
      <Outcomes outcome={outcome} />
      <Table
        caption={
          more ? `The first ${users.length} users (GET /api/v1/admin/users lists them all)` : "Every active user"
        }
        columns={[{ text: "User" }, { text: "Role" }, { text: "Scope" }, { text: "Since" }, { text: "Change" }]}
      >
        <tbody>
          {users.map((u) => (
            <tr>
              <th scope="row" class="text">
                {u.displayName}
              </th>
              <td class="text">
                {ROLE[u.role]}
                {u.approvalState === "pending" ? " (asks to submit)" : ""}
              </td>
              <td class="text">{u.competitionIds.map((id) => named.get(id) ?? id).join(", ")}</td>
              <td class="text date">{u.createdAt.toISOString().slice(0, 10)}</td>
              <td class="text">
                <Changes user={u} competitions={competitions} self={self} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </Layout>
  );
}

function Changes({
  user,
  competitions,
  self,
}: {
  user: AccountView;
  competitions: readonly Competition[];
  self: string;
}) {
  if (user.accountId === self || user.role === "admin") return null;
  const action = (what: string) => `/account/users/${encodeURIComponent(user.accountId)}/${what}`;
  return (
    <>
      {user.role === "submitter" && (
        <form class="inline" method="post" action={action("scope")}>
          <label class="visually-hidden" for={`scope-${user.accountId}`}>
            {`Competitions ${user.displayName} submits for`}
          </label>
          <select id={`scope-${user.accountId}`} name="competitionIds" multiple size={3}>
            {competitions.map((c) => (
              <option value={c.competitionId} selected={user.competitionIds.includes(c.competitionId)}>
                {c.name}
              </option>
            ))}
            {/* A scope beyond the listed competitions stays in the form, so a change keeps it. */}
            {user.competitionIds
              .filter((id) => !competitions.some((c) => c.competitionId === id))
              .map((id) => (
                <option value={id} selected>
                  {id}
                </option>
              ))}
          </select>{" "}
          <button type="submit" aria-label={`Change scope of ${user.displayName}`}>
            Change scope
          </button>
        </form>
      )}{" "}
      {user.role === "submitter" && (
        <form class="inline" method="post" action={action("revocation")}>
          <button type="submit" class="secondary" aria-label={`Revoke access of ${user.displayName}`}>
            Revoke access
          </button>
        </form>
      )}{" "}
      <form class="inline" method="post" action={action("promotion")}>
        <button type="submit" class="secondary" aria-label={`Make administrator: ${user.displayName}`}>
          Make administrator
        </button>
      </form>
    </>
  );
}
