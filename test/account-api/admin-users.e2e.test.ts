import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AccountApi, type ApiUser, expectError, openAccountApi, type Person } from "../support/account-api.js";
import type { FailureMode } from "../support/identity-provider.js";
import { keyOf, rekeyed } from "../support/read-api.js";

/**
 * GET /api/v1/admin/users: active users only, oldest first, each with the email the
 * identity provider holds (read with the server-only secret, never stored), keyset pages,
 * and a controlled 503 when the provider's admin API is not configured or does not answer.
 * This suite owns its database, so it knows every account there is.
 */
let a: AccountApi;
let admin: Person;
const LIST = "/api/v1/admin/users";
type Listed = ApiUser & { email: string | null };
type Page = { data: Listed[]; pagination: { limit: number; nextCursor: string | null } };

beforeAll(async () => {
  a = await openAccountApi({ adminTimeoutMs: 300 });
  admin = await a.anAdmin();
});
afterAll(() => a?.close());
afterEach(() => {
  a.provider.failures.admin = undefined;
});

const list = (query = "", token = admin.token) => a.api.get(`${LIST}${query}`, { token });

/** Every page from the first, following nextCursor. */
async function everyPage(limit: number): Promise<Listed[]> {
  const users: Listed[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const res = await list(`?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status, res.text).toBe(200);
    const page = res.body as Page;
    expect(page.pagination.limit).toBe(limit);
    users.push(...page.data);
    cursor = page.pagination.nextCursor;
    if (cursor === null) return users;
    expect(page.data).toHaveLength(limit);
  }
  throw new Error("more than 100 pages");
}

describe("the active users", () => {
  let people: Person[];
  let disabled: Person;
  let deleted: Person;
  let unknownToProvider: { id: string; subject: string };
  let noEmail: Person;
  let renamedAtProvider: Person;

  beforeAll(async () => {
    people = [];
    for (let i = 0; i < 4; i++) people.push(await a.signIn({ email: `user${i}@example.com`, name: `User ${i}` }));
    noEmail = await a.signIn({ email: null, name: "No Email" });
    disabled = await a.aDisabledAccount();
    deleted = await a.signIn();
    const gone = await a.api.delete("/api/v1/account", { confirmation: "DELETE" }, { token: deleted.token });
    expect(gone.status, gone.text).toBe(204);
    // A subject the provider does not (or no longer) list: no email, still listed.
    const subject = randomUUID();
    const res = await a.api.get("/api/v1/auth/me", {
      token: await a.tokenFor(subject, { email: "claimed@example.com" }),
    });
    unknownToProvider = { id: (res.body as { user: ApiUser }).user.id, subject };
    // The token's email claim is not what the list shows: the provider's is.
    const providerId = a.provider.addUser("at-provider@example.com");
    const token = await a.tokenFor(providerId, { email: "in-token@example.com" });
    expect((await a.api.get("/api/v1/auth/me", { token })).status).toBe(200);
    renamedAtProvider = {
      id: (await a.me({ token })).id,
      subject: providerId,
      token,
      email: "at-provider@example.com",
    };
  });

  it("lists every active user, oldest first, with the provider's email, and no disabled or deleted one", async () => {
    const res = await list();
    expect(res.status, res.text).toBe(200);
    const page = res.body as Page;
    expect(page.pagination).toEqual({ limit: 50, nextCursor: null });
    expect(page.data.map((u) => u.id)).toEqual([
      admin.id,
      ...people.map((p) => p.id),
      noEmail.id,
      unknownToProvider.id,
      renamedAtProvider.id,
    ]);
    const byId = new Map(page.data.map((u) => [u.id, u]));
    expect(byId.get(admin.id)).toMatchObject({ role: "admin", email: admin.email });
    expect(byId.get(people[2]?.id ?? "")).toEqual({
      id: people[2]?.id,
      subject: people[2]?.subject,
      displayName: "User 2",
      role: "viewer",
      approvalState: null,
      requestedCompetition: null,
      competitionIds: [],
      email: "user2@example.com",
    });
    expect(byId.get(noEmail.id)?.email).toBeNull();
    expect(byId.get(unknownToProvider.id)?.email).toBeNull();
    expect(byId.get(renamedAtProvider.id)?.email).toBe("at-provider@example.com");
    expect(byId.has(disabled.id)).toBe(false);
    expect(byId.has(deleted.id)).toBe(false);
    expect(JSON.stringify(page)).not.toContain("claimed@example.com");
    expect(JSON.stringify(page)).not.toContain("in-token@example.com");
  });

  it("shows each user's server-held role, request and scope", async () => {
    const competition = await a.aRegisteredCompetition("Caribbean Premier League");
    const submitter = await a.aSubmitter(admin, competition.id);
    const users = (await list()).body as Page;
    expect(users.data.find((u) => u.id === submitter.id)).toMatchObject({
      role: "submitter",
      approvalState: "approved",
      requestedCompetition: { competitionId: competition.id, name: "Caribbean Premier League" },
      competitionIds: [competition.id],
      email: submitter.email,
    });
  });

  it("pages with limit and cursor: every user once, in the same order", async () => {
    const all = ((await list("?limit=100")).body as Page).data.map((u) => u.id);
    expect(all.length).toBeGreaterThan(5);
    for (const limit of [1, 2, 3]) expect((await everyPage(limit)).map((u) => u.id)).toEqual(all);
  });

  it("a cursor stays valid when a user signs up between pages", async () => {
    const first = (await list("?limit=2")).body as Page;
    const cursor = first.pagination.nextCursor as string;
    const newcomer = await a.signIn();
    const rest = (await list(`?limit=100&cursor=${encodeURIComponent(cursor)}`)).body as Page;
    const ids = [...first.data, ...rest.data].map((u) => u.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.at(-1)).toBe(newcomer.id);
  });

  // Forged from a real cursor: each was a 500, found by the fuzz (the query cast them to timestamptz, or could not send them).
  it.each([
    ["a word PostgreSQL reads as a time", "allballs"],
    ["infinity", "infinity"],
    ["year 0000", "0000-01-01T00:00:00.000Z"],
    ["an empty string", ""],
    ["an unpaired surrogate", "\ud800"],
    ["U+0000", "2024-01-01T00:00:00.000Z\u0000"],
  ])("refuses a cursor forged with %s for its time with 400 naming the cursor", async (_, time) => {
    const cursor = ((await list("?limit=1")).body as Page).pagination.nextCursor as string;
    const [, id] = keyOf(cursor);
    const res = await list(`?limit=1&cursor=${rekeyed(cursor, [time, id])}`);
    expectError(res, 400, "VALIDATION_FAILED");
    expect((res.body as { error: { details: { field: string }[] } }).error.details.map((d) => d.field)).toEqual([
      "cursor",
    ]);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=ten", "limit"],
    ["cursor=not-a-cursor", "cursor"],
    ["role=admin", "role"],
  ])("refuses ?%s with 400 VALIDATION_FAILED", async (query, field) => {
    const res = await list(`?${query}`);
    expectError(res, 400, "VALIDATION_FAILED");
    expect((res.body as { error: { details: { field: string }[] } }).error.details.map((d) => d.field)).toContain(
      field,
    );
  });
});

describe("when the provider's user list is unavailable: 503 IDENTITY_PROVIDER_UNAVAILABLE", () => {
  it("without the admin secret configured, without asking the provider", async () => {
    const before = a.provider.requests.adminList;
    const res = await a.withoutProviderAdmin.get(LIST, { token: admin.token });
    expectError(res, 503, "IDENTITY_PROVIDER_UNAVAILABLE");
    expect(a.provider.requests.adminList).toBe(before);
  });

  it.each<[string, FailureMode]>([
    ["answers 500", "status_500"],
    ["times out", "hang"],
    ["answers HTML", "html"],
    ["answers JSON of another shape", "wrong_shape"],
  ])("when the provider %s", async (_, mode) => {
    a.provider.failures.admin = mode;
    const started = Date.now();
    const res = await list();
    expectError(res, 503, "IDENTITY_PROVIDER_UNAVAILABLE");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.text).not.toContain("Internal Server Error");
    expect(res.text).not.toContain(a.provider.secret);
  });

  it("lists again once the provider recovers", async () => {
    a.provider.failures.admin = "status_500";
    expectError(await list(), 503, "IDENTITY_PROVIDER_UNAVAILABLE");
    a.provider.failures.admin = undefined;
    expect((await list()).status).toBe(200);
  });

  it("the admin check comes first: a viewer gets 403 whatever the provider does", async () => {
    const viewer = await a.signIn();
    a.provider.failures.admin = "hang";
    expectError(await list("", viewer.token), 403, "FORBIDDEN");
    expectError(await a.withoutProviderAdmin.get(LIST, { token: viewer.token }), 403, "FORBIDDEN");
  });
});
