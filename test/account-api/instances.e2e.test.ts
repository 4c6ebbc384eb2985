import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionOptions, type Sql } from "../../src/db/database.js";
import { openEventStore } from "../../src/event-store/open.js";
import {
  type AccountApi,
  type ApiUser,
  type BearerClient,
  bearerClient,
  expectError,
  openAccountApi,
  type Person,
} from "../support/account-api.js";
import { testApp } from "../support/app.js";

/**
 * Two API instances on one database, as production runs several processes on one
 * Postgres: each with its own connection pool and event store, so each keeps its own
 * folds of its callers' accounts. What one instance decides about an account governs the
 * very next request the other serves: a fold kept from before the decision must not.
 */
let a: AccountApi;
let admin: Person;
let otherSql: Sql;
/** The second instance. */
let other: BearerClient;

beforeAll(async () => {
  a = await openAccountApi();
  admin = await a.anAdmin();
  otherSql = postgres(a.db.url, { ...connectionOptions, max: 2 });
  const otherStore = openEventStore({ eventStoreUrl: undefined }, otherSql);
  other = bearerClient(testApp(undefined, a.deps({ sql: otherSql, store: otherStore })).app);
});
afterAll(async () => {
  await otherSql?.end();
  await a?.close();
});

const ME = "/api/v1/auth/me";
const USERS = "/api/v1/admin/users";

/** The caller as the other instance sees it, asserting 200. */
async function otherSees(person: Person): Promise<ApiUser> {
  const res = await other.get(ME, { token: person.token });
  expect(res.status, res.text).toBe(200);
  return (res.body as { user: ApiUser }).user;
}

describe("an account decision taken through one instance, on the other's next request", () => {
  it("a promotion to admin opens the admin routes", async () => {
    const person = await a.signIn();
    expectError(await other.get(USERS, { token: person.token }), 403, "FORBIDDEN");

    const promoted = await a.api.patch(`${USERS}/${person.id}/role`, { role: "admin" }, { token: admin.token });
    expect(promoted.status, promoted.text).toBe(200);

    expect((await other.get(USERS, { token: person.token })).status).toBe(200);
    expect((await otherSees(person)).role).toBe("admin");
  });

  it("a revoked submitter is a viewer again, without scope", async () => {
    const competition = await a.aRegisteredCompetition();
    const person = await a.aSubmitter(admin, competition.id);
    expect(await otherSees(person)).toMatchObject({ role: "submitter", competitionIds: [competition.id] });

    const revoked = await a.api.patch(
      `${USERS}/${person.id}/submitter-access`,
      { approved: false },
      { token: admin.token },
    );
    expect(revoked.status, revoked.text).toBe(200);

    expect(await otherSees(person)).toMatchObject({ role: "viewer", competitionIds: [] });
  });

  it("a disabled account is refused", async () => {
    const person = await a.signIn();
    await otherSees(person);

    // The provider's refusal leaves the deletion at its first step: the account disabled.
    a.provider.failures.admin = "status_500";
    try {
      const deleted = await a.api.delete("/api/v1/account", { confirmation: "DELETE" }, { token: person.token });
      expectError(deleted, 503, "IDENTITY_PROVIDER_UNAVAILABLE");
    } finally {
      a.provider.failures.admin = undefined;
    }

    expectError(await other.get(ME, { token: person.token }), 403, "FORBIDDEN");
  });
});
