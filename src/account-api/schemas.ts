import { z } from "@hono/zod-openapi";
import { APPROVAL_STATES, ROLES } from "../../streams/account.js";
import type { Account } from "../../streams/account-state.js";
import type { Sql } from "../db/database.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { findCompetition } from "../read-api/queries/reference.js";

/** The spec's Current user, shared by /auth/me, the admin user list and the admin decisions. */
export const requestedCompetitionSchema = z
  .object({
    competitionId: z.string().openapi({ example: SAMPLE.competitionId }),
    name: z.string().nullable().openapi({ example: "Indian Premier League" }),
  })
  .openapi("RequestedCompetition");

export const userSchema = z
  .object({
    id: z.string().openapi({ description: "The account id.", example: "0d5f1c1e-6c0b-5b8e-9a53-7b1d0f3a2c11" }),
    subject: z.string().openapi({
      description: "The identity provider's user id (`sub`).",
      example: "a1b2c3d4-0000-4000-8000-000000000001",
    }),
    displayName: z.string().openapi({ example: "Asha Rao" }),
    role: z.enum(ROLES).openapi({ description: "Server-held role; never taken from a token or a request." }),
    approvalState: z.enum(APPROVAL_STATES).nullable().openapi({
      description:
        "The submitter-access request state: `pending`, `approved` (legacy: also kept after a revocation, as the historical decision) or `rejected`; null when access was never requested. Deprecated: read `role` and `competitionIds`.",
      deprecated: true,
    }),
    requestedCompetition: requestedCompetitionSchema
      .nullable()
      .openapi({ description: "The competition of the latest request; null when none was made." }),
    competitionIds: z
      .array(z.string())
      .openapi({ description: "The granted competition scope, sorted.", example: [SAMPLE.competitionId] }),
  })
  .openapi("CurrentUser");

export type User = z.infer<typeof userSchema>;

type UserFields = Pick<Account, "accountId" | "subject" | "displayName" | "role" | "approvalState" | "competitionIds">;

/** An account (its stream's state or the read model's view) as the API shows it. */
export const toUser = (account: UserFields, requestedCompetition: User["requestedCompetition"]): User => ({
  id: account.accountId,
  subject: account.subject ?? "",
  displayName: account.displayName,
  role: account.role,
  approvalState: account.approvalState,
  requestedCompetition,
  competitionIds: account.competitionIds,
});

/** The account's stream state as the API shows it, the requested competition named from the reference data. */
export async function userOf(sql: Sql, account: Account): Promise<User> {
  const requested = account.requestedCompetitionId;
  if (!requested) return toUser(account, null);
  const competition = await findCompetition(sql, requested);
  return toUser(account, { competitionId: requested, name: competition?.name ?? null });
}
