import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountIdForSubject } from "../../streams/account.js";
import {
  type AccountApi,
  type ApiUser,
  expectError,
  expectUnauthorized,
  openAccountApi,
} from "../support/account-api.js";

/**
 * GET /api/v1/auth/me over real signed tokens from the local identity provider: first sight
 * creates a viewer and nothing else; every unusable credential is 401 with the Bearer
 * challenge; a disabled account is 403; nothing in the token sets a role or scope.
 */
let a: AccountApi;
beforeAll(async () => {
  a = await openAccountApi();
});
afterAll(() => a?.close());

const ME = "/api/v1/auth/me";
const now = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const userOf = (body: unknown) => (body as { user: ApiUser }).user;

describe("first sight", () => {
  it("creates a viewer with no request and no scope, and a second call appends nothing", async () => {
    const subject = randomUUID();
    const token = await a.tokenFor(subject, { user_metadata: { name: "Asha Rao" } });

    const first = await a.api.get(ME, { token });
    expect(first.status, first.text).toBe(200);
    const id = accountIdForSubject(subject);
    expect(userOf(first.body)).toEqual({
      id,
      subject,
      displayName: "Asha Rao",
      role: "viewer",
      approvalState: null,
      requestedCompetition: null,
      competitionIds: [],
    });
    expect(await a.history(id)).toEqual(["AccountCreated"]);

    const again = await a.api.get(ME, { token: await a.tokenFor(subject, { user_metadata: { name: "Asha Rao" } }) });
    expect(again.status).toBe(200);
    expect(userOf(again.body)).toEqual(userOf(first.body));
    expect(await a.history(id)).toEqual(["AccountCreated"]);
  });

  it("creates one account when a new subject's first requests arrive together", async () => {
    const subject = randomUUID();
    const token = await a.tokenFor(subject);
    const answers = await Promise.all(Array.from({ length: 5 }, () => a.api.get(ME, { token })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((r) => userOf(r.body).id))).toEqual(new Set([accountIdForSubject(subject)]));
    expect(await a.history(accountIdForSubject(subject))).toEqual(["AccountCreated"]);
  });

  it("syncs a changed display name, and names the user by subject when the token has none", async () => {
    const subject = randomUUID();
    await a.api.get(ME, { token: await a.tokenFor(subject, { user_metadata: { name: "Jo" } }) });
    const renamed = await a.api.get(ME, { token: await a.tokenFor(subject, { user_metadata: { full_name: "Jo B" } }) });
    expect(userOf(renamed.body)).toMatchObject({ displayName: "Jo B", role: "viewer" });
    expect(await a.history(accountIdForSubject(subject))).toEqual(["AccountCreated", "AccountProfileSynced"]);

    const anonymous = randomUUID();
    const unnamed = await a.api.get(ME, { token: await a.tokenFor(anonymous, { user_metadata: {} }) });
    expect(userOf(unnamed.body).displayName).toBe(anonymous);
  });

  it("keeps a display name longer than an account holds to its first 200 characters instead of failing", async () => {
    const long = `${"é".repeat(150)} ${"😀".repeat(100)}`;
    const res = await a.api.get(ME, { token: await a.tokenFor(randomUUID(), { user_metadata: { name: long } }) });
    expect(res.status, res.text).toBe(200);
    const name = userOf(res.body).displayName;
    expect(name.length).toBeLessThanOrEqual(200);
    expect(long.startsWith(name)).toBe(true);
    expect(name).toMatch(/^é{150} (😀)+$/u); // cut between characters, never inside a surrogate pair
  });

  it("keeps a display name holding what the database cannot store with U+FFFD in its place", async () => {
    const res = await a.api.get(ME, {
      token: await a.tokenFor(randomUUID(), { user_metadata: { name: "Jo\u0000 B \ud800" } }),
    });
    expect(res.status, res.text).toBe(200);
    expect(userOf(res.body).displayName).toBe("Jo\ufffd B \ufffd");
  });

  it("never takes a role, request state or scope from the token's claims", async () => {
    const competition = await a.aRegisteredCompetition();
    const claims = {
      role: "admin",
      app_metadata: { provider: "email", role: "admin", roles: ["admin"], competitionIds: [competition.id] },
      user_metadata: { name: "Mallory", role: "admin", approvalState: "approved", competitionIds: [competition.id] },
      competitionIds: [competition.id],
      approvalState: "approved",
      scope: "admin submitter",
    };
    const subject = randomUUID();
    const token = await a.tokenFor(subject, claims);
    // Nor from the query: a role or scope there is an unknown parameter, refused.
    const asked = await a.api.get(`${ME}?role=admin&competitionIds=${competition.id}`, { token });
    expectError(asked, 400, "VALIDATION_FAILED");
    const res = await a.api.get(ME, { token });
    expect(res.status, res.text).toBe(200);
    expect(userOf(res.body)).toMatchObject({
      role: "viewer",
      approvalState: null,
      requestedCompetition: null,
      competitionIds: [],
    });
    expectError(await a.api.get("/api/v1/admin/users", { token }), 403, "FORBIDDEN");
    expect(await a.history(accountIdForSubject(subject))).toEqual(["AccountCreated"]);
  });
});

describe("credentials that are refused with 401 and the Bearer challenge", () => {
  let unpublishedKid: string;
  beforeAll(async () => {
    unpublishedKid = await a.provider.addKey("ES256");
    a.provider.unpublishKey(unpublishedKid);
  });

  const header = (value: string) => ({ headers: { authorization: value } });
  const token = async (claims: Record<string, unknown>) => header(`Bearer ${await a.tokenFor(randomUUID(), claims)}`);
  const cases: [string, () => Promise<{ headers?: Record<string, string> }>][] = [
    ["no Authorization header", async () => ({})],
    ["an empty Authorization header", async () => header("")],
    ["the Basic scheme", async () => header(`Basic ${Buffer.from("jo:secret").toString("base64")}`)],
    ["Bearer without a token", async () => header("Bearer")],
    ["Bearer with only spaces", async () => header("Bearer    ")],
    ["two tokens", async () => header(`Bearer ${await a.tokenFor(randomUUID())} extra`)],
    ["a garbage token", async () => header("Bearer not-a-jwt")],
    ["three garbage segments", async () => header("Bearer aaa.bbb.ccc")],
    ["an expired token", () => token({ iat: now() - 7200, exp: now() - 3600 })],
    ["a token not valid yet", () => token({ nbf: now() + 3600 })],
    ["a token without exp", () => token({ exp: undefined })],
    ["a token without sub", () => token({ sub: undefined })],
    ["another issuer's token", () => token({ iss: "https://attacker.example/auth/v1" })],
    ["a token for another audience", () => token({ aud: "another-service" })],
    ["Supabase's service_role key", () => token({ role: "service_role" })],
    ["Supabase's anon key", () => token({ role: "anon" })],
    ["an anonymous sign-in", () => token({ is_anonymous: true })],
    [
      "a token signed with a key the provider does not publish",
      async () => header(`Bearer ${await a.provider.accessToken({}, { kid: unpublishedKid })}`),
    ],
    [
      "a token whose claims were changed after signing",
      async () => {
        const [h, , s] = (await a.tokenFor(randomUUID())).split(".");
        const forged = b64({ iss: a.provider.issuer, aud: "authenticated", sub: randomUUID(), exp: now() + 3600 });
        return header(`Bearer ${h}.${forged}.${s}`);
      },
    ],
    [
      "an unsigned token (alg none)",
      async () => {
        const claims = { iss: a.provider.issuer, aud: "authenticated", sub: randomUUID(), exp: now() + 3600 };
        return header(`Bearer ${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`);
      },
    ],
    [
      "a token HMAC-signed with the provider's public key (HS256)",
      async () => {
        const kid = (await a.tokenFor("x")).split(".")[0] as string;
        const publishedKid = (JSON.parse(Buffer.from(kid, "base64url").toString()) as { kid: string }).kid;
        const pem = await a.provider.publicKeyPem(publishedKid);
        const forged = await new SignJWT({ role: "authenticated" })
          .setProtectedHeader({ alg: "HS256", kid: publishedKid, typ: "JWT" })
          .setIssuer(a.provider.issuer)
          .setAudience("authenticated")
          .setSubject(randomUUID())
          .setIssuedAt()
          .setExpirationTime("1h")
          .sign(new TextEncoder().encode(pem));
        return header(`Bearer ${forged}`);
      },
    ],
    ["a subject longer than an account can hold", () => token({ sub: "s".repeat(300) })],
    ["a blank subject", () => token({ sub: "   " })],
    ["a subject no account can store (U+0000)", () => token({ sub: "a\u0000b" })],
  ];

  it.each(cases)("%s", async (_, credentials) => {
    const accountsBefore = await a.db.sql`select count(*)::int as n from account`;
    const res = await a.api.get(ME, await credentials());
    expectUnauthorized(res);
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
    await a.world.catchUp();
    expect(await a.db.sql`select count(*)::int as n from account`).toEqual(accountsBefore);
  });

  it("logs why a token was refused, never the token", async () => {
    const expired = await a.tokenFor(randomUUID(), { iat: now() - 7200, exp: now() - 3600 });
    const res = await a.api.get(ME, { token: expired });
    expectUnauthorized(res);
    expect(res.body).toEqual({ error: { code: "UNAUTHORIZED", message: "The bearer token has expired" } });
    expect(a.logs().some((l) => l.msg === "bearer token refused" && l.reason === "expired")).toBe(true);
    expect(JSON.stringify(a.logs())).not.toContain(expired.split(".")[2]);
  });
});

describe("a disabled account", () => {
  it("is refused with 403 and its state is not changed by signing in", async () => {
    const person = await a.aDisabledAccount();
    const before = await a.history(person.id);
    const res = await a.api.get(ME, { token: await a.tokenFor(person.subject, { user_metadata: { name: "New" } }) });
    expectError(res, 403, "FORBIDDEN");
    expect(res.headers.get("www-authenticate")).toBeNull();
    expect(await a.history(person.id)).toEqual(before);
  });
});
