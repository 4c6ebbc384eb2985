import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { accountStream } from "../../streams/account.js";
import {
  type AccountApi,
  type ApiUser,
  expectError,
  expectUnauthorized,
  openAccountApi,
  type Person,
} from "../support/account-api.js";
import type { ApiResponse } from "../support/contract.js";
import { aFixture, type FixtureBuilder } from "../support/cricket-builders.js";

/**
 * DELETE /api/v1/account (specification, "Account deletion"): confirmation exactly DELETE,
 * a sign-in at most 15 minutes old, then disable → hard delete at the provider → tombstone.
 * A provider failure leaves the account disabled and a retry finishes it; a repeat after
 * success is 204 again; without the provider's admin secret it is 501 and nothing changes.
 * Cricket data stays as it was.
 */
let a: AccountApi;
let admin: Person;
let fixture: FixtureBuilder;

beforeAll(async () => {
  a = await openAccountApi({ adminTimeoutMs: 300 });
  admin = await a.anAdmin();
  fixture = aFixture().withInnings({ deliveries: 12 }).withInnings({ deliveries: 10 });
  await a.world.given(fixture);
});
afterAll(() => a?.close());
afterEach(() => {
  a.provider.failures.admin = undefined;
});

const ACCOUNT = "/api/v1/account";
const ME = "/api/v1/auth/me";
const deleteAccount = (token: string, body: unknown = { confirmation: "DELETE" }, api = a.api) =>
  api.delete(ACCOUNT, body, { token });

/** A token for `person` whose sign-in was `minutes` ago. */
const signedInAgo = (person: Person, minutes: number) => a.tokenFor(person.subject, {}, minutes * 60);

async function listedIds(): Promise<string[]> {
  const res = await a.api.get("/api/v1/admin/users?limit=100", { token: admin.token });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: ApiUser[] }).data.map((u) => u.id);
}

/** Runs `attempt`, expects `status`/`code`, and that the account is exactly as it was and still usable. */
async function unchanged(person: Person, attempt: () => Promise<ApiResponse>, status: number, code: string) {
  const [user, history] = [await a.me(person), await a.history(person.id)];
  const res = await attempt();
  expectError(res, status, code);
  expect(await a.me(person)).toEqual(user);
  expect(await a.history(person.id)).toEqual(history);
  expect(a.provider.hasUser(person.subject)).toBe(true);
  expect(await listedIds()).toContain(person.id);
  return res;
}

describe("refusals that change nothing", () => {
  it.each([
    ["a lower-case confirmation", { confirmation: "delete" }],
    ["a padded confirmation", { confirmation: " DELETE " }],
    ["an empty confirmation", { confirmation: "" }],
    ["no confirmation", {}],
    ["a boolean confirmation", { confirmation: true }],
    ["an extra field", { confirmation: "DELETE", now: true }],
  ])("422 VALIDATION_FAILED for %s", async (_, body) => {
    const person = await a.signIn();
    const res = await unchanged(person, () => deleteAccount(person.token, body), 422, "VALIDATION_FAILED");
    expect((res.body as { error: { details: { field: string }[] } }).error.details.length).toBeGreaterThan(0);
  });

  it("422 without a body at all", async () => {
    const person = await a.signIn();
    await unchanged(person, () => a.api.delete(ACCOUNT, undefined, { token: person.token }), 422, "VALIDATION_FAILED");
  });

  it("501 ACCOUNT_DELETION_UNAVAILABLE without the provider's admin secret; the account keeps working", async () => {
    const person = await a.signIn();
    const deletes = a.provider.requests.adminDelete;
    await unchanged(
      person,
      () => deleteAccount(person.token, undefined, a.withoutProviderAdmin),
      501,
      "ACCOUNT_DELETION_UNAVAILABLE",
    );
    expect((await a.withoutProviderAdmin.get(ME, { token: person.token })).status).toBe(200);
    expect(a.provider.requests.adminDelete).toBe(deletes);
  });

  it.each([
    ["signed in 20 minutes ago", { amr: "20" }],
    ["without any sign-in time (no amr, no auth_time)", { amr: undefined }],
    ["whose only authentication is a token refresh", { amr: "refresh" }],
    ["with an old auth_time, however recent its amr", { auth_time: -20 }],
  ])("401 with the insufficient_user_authentication challenge for a token %s", async (_, variant) => {
    const person = await a.signIn();
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {};
    if ("amr" in variant) {
      claims.amr =
        variant.amr === "20"
          ? [{ method: "password", timestamp: now - 20 * 60 }]
          : variant.amr === "refresh"
            ? [{ method: "token_refresh", timestamp: now }]
            : undefined;
    }
    if ("auth_time" in variant) claims.auth_time = now + (variant.auth_time as number) * 60;
    const stale = await a.tokenFor(person.subject, claims);
    const res = await unchanged(person, () => deleteAccount(stale), 401, "UNAUTHORIZED");
    const challenge = res.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain('error="insufficient_user_authentication"');
    expect(challenge).toContain("max_age=900");
  });

  it("the freshness check is only for deletion: a stale token still reads /auth/me", async () => {
    const person = await a.signIn();
    expect((await a.api.get(ME, { token: await signedInAgo(person, 120) })).status).toBe(200);
  });
});

describe("a deletion", () => {
  it("204: disabled, deleted at the provider, tombstoned, no longer listed", async () => {
    const person = await a.signIn({ name: "Leaving Soon" });
    const res = await deleteAccount(
      await a.tokenFor(person.subject, { user_metadata: { name: "Leaving Soon" } }, 14 * 60),
    );
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe("");

    expect(a.provider.hasUser(person.subject)).toBe(false);
    expect(await listedIds()).not.toContain(person.id);
    expectError(await a.api.get(ME, { token: person.token }), 403, "FORBIDDEN");
    const events = await a.world.store.readStream(accountStream(person.id));
    expect(events.map((e) => [e.type, e.data, e.metadata.actor])).toEqual([
      // Its key destroyed with the tombstone, the account's personal fields read as null (erasure.e2e.test.ts).
      ["AccountCreated", { accountId: person.id, subject: null, displayName: null }, person.id],
      ["AccountDisabled", { reason: "deletion-requested" }, person.id],
      ["AccountTombstoned", {}, person.id],
    ]);
    const [row] = await a.db.sql`
      select subject, display_name, role, approval_state, competition_ids, disabled, tombstoned
      from account where account_id = ${person.id}`;
    expect(row).toEqual({
      subject: null,
      display_name: "Deleted account",
      role: "viewer",
      approval_state: null,
      competition_ids: [],
      disabled: true,
      tombstoned: true,
    });
  });

  it("revokes a submitter's role and scope, and leaves fixtures, deliveries and statistics as they were", async () => {
    const competitionId = fixture.season.competition.id;
    const submitter = await a.aSubmitter(admin, competitionId);
    const reads = [
      `/api/v1/fixtures/${fixture.id}`,
      `/api/v1/fixtures/${fixture.id}/events?limit=100`,
      `/api/v1/fixtures/${fixture.id}/statistics`,
      `/api/v1/competitions/${competitionId}`,
    ];
    const before = await Promise.all(reads.map((path) => a.api.get(path)));
    for (const res of before) expect(res.status, res.text).toBe(200);

    expect((await deleteAccount(submitter.token)).status).toBe(204);

    const after = await Promise.all(reads.map((path) => a.api.get(path)));
    expect(after.map((r) => [r.status, r.body])).toEqual(before.map((r) => [r.status, r.body]));
    const [row] = await a.db.sql`select role, competition_ids from account where account_id = ${submitter.id}`;
    expect(row).toEqual({ role: "viewer", competition_ids: [] });
  });

  it("repeated after success is 204 again and appends nothing", async () => {
    const person = await a.signIn();
    expect((await deleteAccount(person.token)).status).toBe(204);
    const history = await a.history(person.id);
    const again = await deleteAccount(person.token);
    expect(again.status, again.text).toBe(204);
    expect(await a.history(person.id)).toEqual(history);
  });

  it("by an admin removes the admin too", async () => {
    const leaving = await a.anAdmin();
    expect((await deleteAccount(leaving.token)).status).toBe(204);
    expectError(await a.api.get("/api/v1/admin/users", { token: leaving.token }), 403, "FORBIDDEN");
    expect(await listedIds()).not.toContain(leaving.id);
  });
});

describe("when the provider fails to delete the user", () => {
  it.each([
    ["answers 500", "status_500"],
    ["answers an HTML page with 200", "html"],
    ["times out", "hang"],
  ] as const)(
    "503 IDENTITY_PROVIDER_UNAVAILABLE when it %s; the account stays disabled and a retry finishes",
    async (_, mode) => {
      const person = await a.signIn();
      a.provider.failures.admin = mode;
      const failed = await deleteAccount(person.token);
      expectError(failed, 503, "IDENTITY_PROVIDER_UNAVAILABLE");
      expect(failed.text).not.toContain(a.provider.secret);

      expect(a.provider.hasUser(person.subject)).toBe(true);
      expectError(await a.api.get(ME, { token: person.token }), 403, "FORBIDDEN");
      expectError(
        await a.api.post("/api/v1/submitter-access-requests", { competitionId: "x" }, { token: person.token }),
        403,
        "FORBIDDEN",
      );
      a.provider.failures.admin = undefined;
      expect(await listedIds()).not.toContain(person.id);
      expect(await a.history(person.id)).toEqual(["AccountCreated", "AccountDisabled"]);

      const retried = await deleteAccount(person.token);
      expect(retried.status, retried.text).toBe(204);
      expect(a.provider.hasUser(person.subject)).toBe(false);
      expect(await a.history(person.id)).toEqual(["AccountCreated", "AccountDisabled", "AccountTombstoned"]);
    },
  );

  it("a retry still needs a fresh sign-in and the exact confirmation", async () => {
    const person = await a.signIn();
    a.provider.failures.admin = "status_500";
    expectError(await deleteAccount(person.token), 503, "IDENTITY_PROVIDER_UNAVAILABLE");
    a.provider.failures.admin = undefined;
    expectUnauthorized(await deleteAccount(await signedInAgo(person, 30)));
    expectError(await deleteAccount(person.token, { confirmation: "yes" }), 422, "VALIDATION_FAILED");
    expect(await a.history(person.id)).toEqual(["AccountCreated", "AccountDisabled"]);
    expect((await deleteAccount(person.token)).status).toBe(204);
  });

  it("counts a user the provider no longer knows as deleted (a 404 of its own)", async () => {
    const stranger = await a.tokenFor(`gone-at-provider-${Date.now()}`);
    const user = await a.me({ token: stranger });
    expect((await deleteAccount(stranger)).status).toBe(204);
    expect(await a.history(user.id)).toEqual(["AccountCreated", "AccountDisabled", "AccountTombstoned"]);
  });
});
