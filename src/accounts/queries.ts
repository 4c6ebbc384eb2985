import type { ApprovalState, Role } from "../../streams/account.js";
import type { Sql } from "../db/database.js";

/**
 * Reads of the `account` read model (src/projections/accounts.ts) for authentication, GET
 * /auth/me and the admin user list. The requested competition's name comes from the
 * `competition` read model; it is null while that has not caught up.
 */
export type AccountView = {
  accountId: string;
  /** null once tombstoned. */
  subject: string | null;
  displayName: string;
  role: Role;
  /** null: never requested. */
  approvalState: ApprovalState | null;
  requestedCompetition: { competitionId: string; name: string | null } | null;
  competitionIds: string[];
  disabled: boolean;
  tombstoned: boolean;
  createdAt: Date;
  updatedAt: Date;
  decidedBy: string | null;
  decidedAt: Date | null;
};

type AccountRow = {
  account_id: string;
  subject: string | null;
  display_name: string;
  role: Role;
  approval_state: ApprovalState | null;
  requested_competition_id: string | null;
  competition_name: string | null;
  competition_ids: string[];
  disabled: boolean;
  tombstoned: boolean;
  created_at: Date;
  updated_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
};

const select = (sql: Sql) => sql`
  select a.account_id, a.subject, a.display_name, a.role, a.approval_state, a.requested_competition_id,
         c.name as competition_name, a.competition_ids, a.disabled, a.tombstoned, a.created_at, a.updated_at,
         a.decided_by, a.decided_at
  from account a left join competition c on c.competition_id = a.requested_competition_id`;

const view = (r: AccountRow): AccountView => ({
  accountId: r.account_id,
  subject: r.subject,
  displayName: r.display_name,
  role: r.role,
  approvalState: r.approval_state,
  requestedCompetition: r.requested_competition_id
    ? { competitionId: r.requested_competition_id, name: r.competition_name }
    : null,
  competitionIds: r.competition_ids,
  disabled: r.disabled,
  tombstoned: r.tombstoned,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  decidedBy: r.decided_by,
  decidedAt: r.decided_at,
});

export async function findAccount(sql: Sql, accountId: string): Promise<AccountView | undefined> {
  const [row] = await sql<AccountRow[]>`${select(sql)} where a.account_id = ${accountId}`;
  return row && view(row);
}

/** The account of an identity-provider subject; a tombstoned account is no longer found by it. */
export async function findAccountBySubject(sql: Sql, subject: string): Promise<AccountView | undefined> {
  const [row] = await sql<AccountRow[]>`${select(sql)} where a.subject = ${subject}`;
  return row && view(row);
}

/** Sort key of the admin user list: oldest account first, the id breaking ties. */
export type ActiveAccountKey = [createdAt: string, accountId: string];
export const activeAccountKey = (account: AccountView): ActiveAccountKey => [
  account.createdAt.toISOString(),
  account.accountId,
];

/** Accounts not disabled (nor deleted), oldest first, strictly after `after`: the admin user list. */
export async function listActiveAccounts(
  sql: Sql,
  { after, take }: { after?: ActiveAccountKey | undefined; take: number },
): Promise<AccountView[]> {
  const rows = await sql<AccountRow[]>`
    ${select(sql)}
    where not a.disabled
      ${after ? sql`and (a.created_at, a.account_id) > (${after[0]}::timestamptz, ${after[1]})` : sql``}
    order by a.created_at, a.account_id
    limit ${take}`;
  return rows.map(view);
}

/** Accounts whose request for submitter access waits for a decision, oldest request first. */
export async function listPendingRequests(sql: Sql, { take }: { take: number }): Promise<AccountView[]> {
  const rows = await sql<AccountRow[]>`
    ${select(sql)}
    where a.approval_state = 'pending' and not a.disabled
    order by a.updated_at, a.account_id
    limit ${take}`;
  return rows.map(view);
}
