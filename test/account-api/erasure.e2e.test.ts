import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { bootstrapAdmin } from "../../src/commands/accounts/handlers.js";
import { projectors } from "../../src/projections/registry.js";
import { accountStream } from "../../streams/account.js";
import { fixtureStream } from "../../streams/fixture.js";
import type { Person } from "../support/account-api.js";
import {
  correctionOf,
  openSubmissionApi,
  type SubmissionApi,
  type SubmittedEvent,
  submission,
  validEvents,
} from "../support/submissions.js";

/**
 * Erasure (issue 18, item 7): after DELETE /account no personal field of the account can be
 * read from the event store or any read model, also after every projector is rebuilt from
 * the start of the log, while provenance (the submission, the delivery history) still names
 * the account by its id.
 */
let api: SubmissionApi;
beforeAll(async () => {
  api = await openSubmissionApi();
}, 60_000);
afterAll(() => api?.close());

const tag = randomUUID().slice(0, 8);
const firstName = `Priya Erasable ${tag}`;
const laterName = `Priya Renamed ${tag}`;

/** The rows of every table in the database (views aside: they show the same rows) that hold any of `texts`. */
async function tablesHolding(texts: readonly string[]): Promise<string[]> {
  const { sql } = api.db;
  const tables = await sql<{ name: string }[]>`
    select table_schema || '.' || table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`;
  const patterns = texts.map((t) => `%${t}%`);
  const holding: string[] = [];
  for (const { name } of tables) {
    const rows = await sql<{ row: string }[]>`
      select t::text as row from ${sql(name)} t where t::text ilike any(${patterns}::text[])`;
    holding.push(...rows.map((r) => `${name}: ${r.row}`));
  }
  return holding;
}

/** GET the delivery's history as the remaining admin. */
async function historyOf(eventId: string) {
  const res = await api.api.get(`/api/v1/submissions/events/${eventId}/history`, { token: api.admin.token });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: { recorded: { recordedBy: unknown }; corrections: { requestedBy: unknown }[] } }).data;
}

/** Someone who signed in twice under two names, was made an admin, submitted deliveries and corrected one. */
async function aContributor(): Promise<{ person: Person; target: SubmittedEvent; fixtureId: string }> {
  const signedIn = await api.signIn({ name: firstName });
  // Every request signs in again: from here on the provider reports the later name.
  const person = { ...signedIn, token: await api.tokenFor(signedIn.subject, { user_metadata: { name: laterName } }) };
  expect((await api.me(person)).displayName).toBe(laterName);
  await bootstrapAdmin(api.world.store, person.subject, { now: new Date() });
  await api.world.catchUp();

  const fixture = await api.aFixtureToSubmitTo();
  const events = validEvents(fixture, 3);
  const submitted = await api.submit(submission(fixture, events), person.token);
  expect(submitted.status, submitted.text).toBe(201);
  const target = events[1] as SubmittedEvent;
  const corrected = await api.api.put(
    `/api/v1/submissions/events/${target.eventId}`,
    correctionOf(fixture, target, { runs: { offBat: 3, extras: 0, total: 3 } }),
    { token: person.token },
  );
  expect(corrected.status, corrected.text).toBe(200);
  return { person, target, fixtureId: fixture.id };
}

it("erases the subject and display names everywhere, rebuilds included; provenance keeps the account id", async () => {
  const { person, target, fixtureId } = await aContributor();
  const personal = [person.subject, firstName, laterName];

  // Sealed at rest from the start; the read model holds them while the account lives.
  expect(await tablesHolding(personal)).toEqual([expect.stringMatching(/\.account: /)]);
  expect((await historyOf(target.eventId)).recorded.recordedBy).toEqual({ id: person.id, name: laterName });

  const deleted = await api.api.delete("/api/v1/account", { confirmation: "DELETE" }, { token: person.token });
  expect(deleted.status, deleted.text).toBe(204);

  const erased = async () => {
    expect(await tablesHolding(personal)).toEqual([]);
    expect(await api.db.sql`select 1 from personal_data_keys where account_id = ${person.id}`).toHaveLength(0);
    const account = await api.world.store.readStream(accountStream(person.id));
    expect(account.filter((e) => e.type.startsWith("Account")).map((e) => [e.type, e.data])).toEqual([
      ["AccountCreated", { accountId: person.id, subject: null, displayName: null }],
      ["AccountProfileSynced", { displayName: null }],
      ["AccountPromoted", { role: "admin", decidedBy: "cli" }],
      ["AccountDisabled", { reason: "deletion-requested" }],
      ["AccountTombstoned", {}],
    ]);
    const [row] = await api.db
      .sql`select subject, display_name, tombstoned from account where account_id = ${person.id}`;
    expect(row).toEqual({ subject: null, display_name: "Deleted account", tombstoned: true });

    // Provenance: the id, named as the tombstone.
    const tombstone = { id: person.id, name: "Deleted account" };
    const history = await historyOf(target.eventId);
    expect(history.recorded.recordedBy).toEqual(tombstone);
    expect(history.corrections.map((c) => c.requestedBy)).toEqual([tombstone]);
    const fixture = await api.world.store.readStream(fixtureStream(fixtureId));
    const accepted = fixture.filter((e) => e.type === "SubmissionAccepted").map((e) => e.data);
    expect(accepted).toEqual([expect.objectContaining({ submitterId: person.id })]);
    expect(fixture.filter((e) => e.metadata.actor === person.id).length).toBeGreaterThan(3);
  };
  await erased();

  for (const projector of projectors) await api.world.runner.rebuild(projector.name);
  await erased();
  // Everyone else's names survive the rebuild: only this account's key was destroyed.
  expect((await api.me(api.admin)).displayName).toBe("Jo Bloggs");
});
