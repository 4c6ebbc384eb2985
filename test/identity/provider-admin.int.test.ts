import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Secret } from "../../src/config.js";
import {
  openProviderAdmin,
  ProviderUnavailable,
  type SupabaseAdminOptions,
  supabaseAdmin,
} from "../../src/identity/provider-admin.js";
import { type IdentityProvider, startIdentityProvider } from "../support/identity-provider.js";

let provider: IdentityProvider;
beforeAll(async () => {
  provider = await startIdentityProvider();
});
afterAll(() => provider.close());
afterEach(() => {
  provider.failures.admin = undefined;
});

const admin = (options: Partial<SupabaseAdminOptions> = {}) =>
  supabaseAdmin({ url: provider.authUrl, secret: new Secret(provider.secret), timeoutMs: 1_000, ...options });

const failure = async (work: Promise<unknown>) => {
  const error = await work.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProviderUnavailable);
  return error as ProviderUnavailable;
};

describe("Supabase admin adapter", () => {
  it("lists every user across pages, looping until a short page", async () => {
    const ids = [provider.addUser("a@example.com"), provider.addUser(null), provider.addUser("c@example.com")];
    for (let i = 0; i < 4; i++) ids.push(provider.addUser());
    const before = provider.requests.adminList;

    const users = await admin({ perPage: 3 }).listUsers();

    expect(users.map((u) => u.subject)).toEqual(expect.arrayContaining(ids));
    expect(new Set(users.map((u) => u.subject)).size).toBe(users.length);
    expect(users.find((u) => u.subject === ids[0])).toEqual({ subject: ids[0], email: "a@example.com" });
    // GoTrue answers a user without email with "", which is no email.
    expect(users.find((u) => u.subject === ids[1])?.email).toBeNull();
    expect(provider.requests.adminList - before).toBe(Math.floor(users.length / 3) + 1);
  });

  it("hard-deletes a user", async () => {
    const id = provider.addUser();
    await admin().deleteUser(id);
    expect(provider.hasUser(id)).toBe(false);
  });

  it("counts deleting a user the provider no longer knows as done, so a retry is idempotent", async () => {
    const id = provider.addUser();
    await admin().deleteUser(id);
    await expect(admin().deleteUser(id)).resolves.toBeUndefined();
    await expect(admin().deleteUser("not-a-uuid")).resolves.toBeUndefined();
  });

  it("does not take a 404 from outside the auth API (a wrong AUTH_ADMIN_URL) for a deletion", async () => {
    const misconfigured = admin({ url: `${provider.origin}/wrong/base` });
    expect((await failure(misconfigured.deleteUser(provider.addUser()))).reason).toBe("unexpected_response");
  });

  it("reports a wrong secret as unauthorized, without the secret in the message", async () => {
    const wrong = admin({ secret: new Secret("sb_secret_wrong") });
    const error = await failure(wrong.listUsers());
    expect(error).toMatchObject({ reason: "unauthorized", status: 401 });
    expect(error.message).not.toContain("sb_secret");
    expect((await failure(wrong.deleteUser(provider.addUser()))).reason).toBe("unauthorized");
  });

  it.each([
    ["status_500", "http_status"],
    ["html", "unexpected_response"],
    ["wrong_shape", "unexpected_response"],
  ] as const)("reports a provider answering %s as unavailable (%s)", async (mode, reason) => {
    provider.failures.admin = mode;
    expect((await failure(admin().listUsers())).reason).toBe(reason);
    // A 2xx that is not JSON is no proof of deletion; any JSON object is what GoTrue answers.
    if (mode !== "wrong_shape") expect((await failure(admin().deleteUser(provider.addUser()))).reason).toBe(reason);
  });

  it("gives up on a silent provider after its timeout", async () => {
    provider.failures.admin = "hang";
    const started = performance.now();
    expect((await failure(admin({ timeoutMs: 200 }).listUsers())).reason).toBe("timeout");
    expect((await failure(admin({ timeoutMs: 200 }).deleteUser(provider.addUser()))).reason).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("reports a provider nobody answers for as unreachable", async () => {
    const nowhere = admin({ url: "http://127.0.0.1:1/auth/v1" });
    expect((await failure(nowhere.listUsers())).reason).toBe("unreachable");
  });

  it("exists only when both the admin URL and the secret are configured", () => {
    expect(openProviderAdmin({ authAdminUrl: undefined, authAdminSecret: undefined })).toBeUndefined();
    expect(openProviderAdmin({ authAdminUrl: provider.authUrl, authAdminSecret: undefined })).toBeUndefined();
    expect(openProviderAdmin({ authAdminUrl: provider.authUrl, authAdminSecret: new Secret("s") })).toBeDefined();
  });
});
