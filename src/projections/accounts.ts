import type { PendingQuery, Row } from "postgres";
import {
  AccountCreated,
  AccountDisabled,
  type AccountEvent,
  AccountProfileSynced,
  AccountPromoted,
  AccountTombstoned,
  SubmitterAccessApproved,
  SubmitterAccessRejected,
  SubmitterAccessRequested,
  SubmitterAccessRevoked,
  SubmitterScopeReplaced,
  TOMBSTONE,
} from "../../streams/account.js";
import { scope, shownName } from "../../streams/account-state.js";
import type { Tx } from "../db/database.js";
import type { Recorded } from "../event-store/port.js";
import { defineProjector } from "./projector.js";
import { json, lastByKey, streamEntityId } from "./rows.js";

/**
 * Accounts as their streams say now: identity, role, submitter-access request and scope,
 * deletion state and the latest decision. Read by authentication (by id or subject), GET
 * /auth/me and the admin user list. Email is not here: it stays with the identity provider.
 */
const ddl = `
  create table account (
    account_id text primary key,
    -- null once tombstoned
    subject text,
    display_name text not null,
    role text not null,
    -- pending, approved, rejected; null when never requested
    approval_state text,
    requested_competition_id text,
    competition_ids text[] not null default '{}',
    disabled boolean not null default false,
    tombstoned boolean not null default false,
    created_at timestamptz not null,
    updated_at timestamptz not null,
    decided_by text,
    decided_at timestamptz,
    -- the stream revision applied last: an event at or below it is a replay and changes nothing
    revision integer not null
  );
  create unique index account_by_subject on account (subject);
  create index account_active on account (created_at, account_id) where not disabled;`;

/**
 * Applies one run of events of a type: `set` assigns columns from `r` (account_id, revision,
 * at, display_name, competition_id, competition_ids, decided_by) to accounts still below
 * the event's revision.
 */
const change = <E extends Recorded<AccountEvent>>(
  tx: Tx,
  events: readonly E[],
  set: PendingQuery<Row[]>,
  fields: (data: E["data"]) => object = () => ({}),
) => tx`
  update account a set ${set}, updated_at = r.at, revision = r.revision
  from jsonb_to_recordset(${json(tx, rowsOf(events, fields))}) as r(
    account_id text, revision integer, at timestamptz, display_name text, competition_id text,
    competition_ids text[], decided_by text)
  where a.account_id = r.account_id and a.revision < r.revision`;

/** One row per account in the run (the last event wins), with what `fields` takes from its data. */
const rowsOf = <E extends Recorded<AccountEvent>>(events: readonly E[], fields: (data: E["data"]) => object) =>
  lastByKey(
    events.map((e) => ({
      account_id: streamEntityId(e.streamId),
      revision: e.revision,
      at: e.metadata.occurredAt,
      ...fields(e.data),
    })),
    (r) => r.account_id,
  );

const decided = (d: { decidedBy: string }) => ({ decided_by: d.decidedBy });

export const accounts = defineProjector({
  name: "accounts",
  version: 1,
  description: "Accounts: role, submitter-access request and scope, deletion state, latest decision.",
  tables: ["account"],
  ddl,
  on: {
    [AccountCreated.type]: (tx, events) => {
      const created = events.map((e) => {
        const d = e.data;
        return {
          account_id: d.accountId,
          subject: d.subject,
          display_name: shownName(d.displayName),
          at: e.metadata.occurredAt,
          revision: e.revision,
        };
      });
      return tx`
        insert into account (account_id, subject, display_name, role, created_at, updated_at, revision)
        select account_id, subject, display_name, 'viewer', at, at, revision
        from jsonb_to_recordset(${json(tx, created)})
          as r(account_id text, subject text, display_name text, at timestamptz, revision integer)
        on conflict do nothing`;
    },
    [AccountProfileSynced.type]: (tx, events) =>
      change(tx, events, tx`display_name = r.display_name`, (d) => ({
        display_name: shownName(d.displayName),
      })),
    [SubmitterAccessRequested.type]: (tx, events) =>
      change(tx, events, tx`approval_state = 'pending', requested_competition_id = r.competition_id`, (d) => ({
        competition_id: d.competitionId,
      })),
    [SubmitterAccessApproved.type]: (tx, events) =>
      change(
        tx,
        events,
        tx`role = 'submitter', approval_state = 'approved', competition_ids = r.competition_ids,
           decided_by = r.decided_by, decided_at = r.at`,
        (d) => ({
          competition_ids: scope(d.competitionIds),
          ...decided(d),
        }),
      ),
    [SubmitterAccessRejected.type]: (tx, events) =>
      change(
        tx,
        events,
        tx`approval_state = 'rejected', competition_ids = '{}', decided_by = r.decided_by, decided_at = r.at`,
        decided,
      ),
    [SubmitterAccessRevoked.type]: (tx, events) =>
      change(
        tx,
        events,
        tx`role = 'viewer', competition_ids = '{}', decided_by = r.decided_by, decided_at = r.at`,
        decided,
      ),
    [SubmitterScopeReplaced.type]: (tx, events) =>
      change(
        tx,
        events,
        tx`competition_ids = r.competition_ids, decided_by = r.decided_by, decided_at = r.at`,
        (d) => ({
          competition_ids: scope(d.competitionIds),
          ...decided(d),
        }),
      ),
    [AccountPromoted.type]: (tx, events) =>
      change(tx, events, tx`role = 'admin', decided_by = r.decided_by, decided_at = r.at`, decided),
    [AccountDisabled.type]: (tx, events) =>
      change(
        tx,
        events,
        tx`disabled = true, role = 'viewer', approval_state = null, requested_competition_id = null,
           competition_ids = '{}'`,
      ),
    [AccountTombstoned.type]: (tx, events) =>
      change(
        tx,
        events,
        tx`subject = ${TOMBSTONE.subject}, display_name = ${TOMBSTONE.displayName}, disabled = true, tombstoned = true`,
      ),
  },
});
