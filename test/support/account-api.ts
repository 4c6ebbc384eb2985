import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { bootstrapAdmin, requestDeletion } from "../../src/commands/accounts/handlers.js";
import { Secret } from "../../src/config.js";
import type { Router } from "../../src/http/api.js";
import type { AppDependencies } from "../../src/http/app.js";
import { supabaseAdmin } from "../../src/identity/provider-admin.js";
import { createTokenVerifier } from "../../src/identity/verifier.js";
import type { WindowCounter } from "../../src/limits/window-counter.js";
import { accountIdForSubject, accountStream } from "../../streams/account.js";
import { testApp } from "./app.js";
import { type ApiResponse, contractClient } from "./contract.js";
import { aCompetition, type CompetitionBuilder } from "./cricket-builders.js";
import { CricketWorld } from "./cricket-world.js";
import { openTestDatabase, type TestDatabase } from "./databases.js";
import { type IdentityProvider, startIdentityProvider } from "./identity-provider.js";
import { type FakeWeatherProvider, startWeatherProvider, weatherFrom } from "./weather-provider.js";

/** The spec's Current user, as GET /auth/me and the admin decisions answer with it. */
export type ApiUser = {
  id: string;
  subject: string;
  displayName: string;
  role: "viewer" | "submitter" | "admin";
  approvalState: "pending" | "approved" | "rejected" | null;
  requestedCompetition: { competitionId: string; name: string | null } | null;
  competitionIds: string[];
};

/** Someone signed in at the local identity provider: their account id, subject and a bearer token. */
export type Person = { id: string; subject: string; token: string; email: string | null };

type Body = unknown;
type CallOptions = { token?: string | undefined; headers?: Record<string, string>; body?: Body };

/** A contract-checked client of one app, with bearer tokens and JSON bodies for every method. */
export function bearerClient(app: Router) {
  const api = contractClient(app);
  const call = (method: string, path: string, { token, headers = {}, body }: CallOptions = {}) =>
    api.request(path, {
      method,
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        // A FormData body sets its own multipart Content-Type, boundary included.
        ...(body === undefined || body instanceof FormData || body instanceof Uint8Array
          ? {}
          : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined
        ? {}
        : {
            body:
              typeof body === "string" || body instanceof FormData || body instanceof Uint8Array
                ? body
                : JSON.stringify(body),
          }),
    });
  return {
    document: api.document,
    answered: api.answered,
    call,
    get: (path: string, options?: CallOptions) => call("GET", path, options),
    post: (path: string, body?: Body, options?: CallOptions) => call("POST", path, { ...options, body }),
    patch: (path: string, body?: Body, options?: CallOptions) => call("PATCH", path, { ...options, body }),
    put: (path: string, body?: Body, options?: CallOptions) => call("PUT", path, { ...options, body }),
    delete: (path: string, body?: Body, options?: CallOptions) => call("DELETE", path, { ...options, body }),
  };
}
export type BearerClient = ReturnType<typeof bearerClient>;

/**
 * The application routes over a real database: the real app with a token verifier reading
 * the local identity provider's JWKS and the Supabase admin adapter calling its admin API
 * (`api`), the same app without the admin adapter (`withoutProviderAdmin`), the event store
 * the commands append to and a running projection runner for read-your-writes.
 */
export type AccountApi = Awaited<ReturnType<typeof openAccountApi>>;

export async function openAccountApi({
  adminTimeoutMs = 500,
  rateLimits,
  deps = {},
}: {
  adminTimeoutMs?: number;
  rateLimits?: WindowCounter;
  /** More of the app's dependencies (limits, secret, CORS), for every app built here. */
  deps?: Partial<AppDependencies>;
} = {}) {
  const [db, provider, weatherProvider]: [TestDatabase, IdentityProvider, FakeWeatherProvider] = await Promise.all([
    openTestDatabase(),
    startIdentityProvider(),
    startWeatherProvider(),
  ]);
  await provider.addKey("ES256");
  const world = new CricketWorld(db.sql);
  await world.catchUp(); // every read model exists before the first request
  world.runner.start();

  const verifier = createTokenVerifier({
    issuer: provider.issuer,
    audience: "authenticated",
    keys: { jwksUrl: provider.jwksUrl },
  });
  const providerAdmin = supabaseAdmin({
    url: provider.authUrl,
    secret: new Secret(provider.secret),
    timeoutMs: adminTimeoutMs,
  });
  const weather = weatherFrom(weatherProvider);
  /** What every app built here runs on (the logger aside): this database, store, runner and providers. */
  const depsWith = (admin: boolean, more: Partial<AppDependencies> = {}) => ({
    sql: db.sql,
    // The read pool of this database, unless the app is given another one to run on.
    ...(more.sql ? {} : { reads: db.reads }),
    store: world.store,
    projections: world.runner,
    identity: admin ? { verifier, providerAdmin } : { verifier },
    weather,
    ...(rateLimits ? { rateLimits } : {}),
    // Suites send far more packages than an account may in a minute; the limit's own test sets it.
    limits: { batchesPerMinute: 1_000_000 },
    ...deps,
    ...more,
  });
  const appWith = (admin: boolean, more: Partial<AppDependencies> = {}) => testApp(undefined, depsWith(admin, more));
  const main = appWith(true);
  const api = bearerClient(main.app);
  const withoutProviderAdmin = bearerClient(appWith(false).app);
  /** Another instance of the app over the same database, e.g. with a counter of its own. */
  const anotherInstance = (more: Partial<AppDependencies>) => bearerClient(appWith(true, more).app);

  const tokenFor = (subject: string, claims: Record<string, unknown> = {}, signedInSecondsAgo = 0) =>
    provider.accessToken({ sub: subject, ...claims }, { signedInSecondsAgo });

  /** A user known to the provider (with `email`), signed in through GET /auth/me. */
  async function signIn({
    email = `${randomUUID().slice(0, 8)}@example.com` as string | null,
    name = "Jo Bloggs",
  }: {
    email?: string | null;
    name?: string;
  } = {}): Promise<Person> {
    const subject = provider.addUser(email);
    const token = await tokenFor(subject, { email: email ?? "", user_metadata: { name } });
    const res = await api.get("/api/v1/auth/me", { token });
    expect(res.status, res.text).toBe(200);
    const user = (res.body as { user: ApiUser }).user;
    expect(user.id).toBe(accountIdForSubject(subject));
    return { id: user.id, subject, token, email };
  }

  /** An administrator, bootstrapped as `cricket admin promote` does (there is no HTTP way to one). */
  async function anAdmin(): Promise<Person> {
    const person = await signIn();
    await bootstrapAdmin(world.store, person.subject, { now: new Date() });
    await world.catchUp();
    return person;
  }

  /** A competition registered through the reference events. */
  async function aRegisteredCompetition(name = `Competition ${randomUUID().slice(0, 6)}`): Promise<CompetitionBuilder> {
    const competition = aCompetition({ name });
    await world.given(competition);
    return competition;
  }

  /** A consumer's API key, issued by `admin`: it opens the public reads, and nothing that takes a bearer token. */
  async function anApiKey(admin: Person): Promise<string> {
    const res = await api.post("/api/v1/admin/api-consumers", { name: "Fantasy XI" }, { token: admin.token });
    expect(res.status, res.text).toBe(201);
    return (res.body as { data: { apiKey: string } }).data.apiKey;
  }

  /** A submitter of `competitionId`, through request and approval over HTTP. */
  async function aSubmitter(admin: Person, competitionId: string): Promise<Person> {
    const person = await signIn();
    const requested = await api.post("/api/v1/submitter-access-requests", { competitionId }, { token: person.token });
    expect(requested.status, requested.text).toBe(200);
    const approved = await api.patch(
      `/api/v1/admin/users/${person.id}/submitter-access`,
      { approved: true },
      { token: admin.token },
    );
    expect(approved.status, approved.text).toBe(200);
    return person;
  }

  /** A disabled account: deletion requested (the first step of DELETE /account), the provider step not done. */
  async function aDisabledAccount(): Promise<Person> {
    const person = await signIn();
    await requestDeletion(world.store, person.id, { now: new Date() });
    await world.catchUp();
    return person;
  }

  /** GET /auth/me as `person`: the user, asserting 200. */
  async function me(person: Pick<Person, "token">): Promise<ApiUser> {
    const res = await api.get("/api/v1/auth/me", { token: person.token });
    expect(res.status, res.text).toBe(200);
    return (res.body as { user: ApiUser }).user;
  }

  /** The account stream's event types: what was decided, in order. */
  const history = async (accountId: string) =>
    (await world.store.readStream(accountStream(accountId))).map((e) => e.type);

  return {
    db,
    world,
    provider,
    /** The loopback weather provider every app built here asks. */
    weatherProvider,
    api,
    withoutProviderAdmin,
    anotherInstance,
    /** The dependencies of the main app, for an app built from modules of its own (another process). */
    deps: (more: Partial<AppDependencies> = {}) => depsWith(true, more),
    /** The app itself, for what the contract does not document (CORS preflights). */
    app: main.app,
    logs: main.logs,
    tokenFor,
    signIn,
    anAdmin,
    aRegisteredCompetition,
    aSubmitter,
    anApiKey,
    aDisabledAccount,
    me,
    history,
    async close() {
      await world.runner.stop();
      await Promise.all([db.close(), provider.close(), weatherProvider.close()]);
    },
  };
}

/** Asserts an error answer: status and code. */
export function expectError(res: ApiResponse, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect((res.body as { error: { code: string } }).error.code).toBe(code);
}

/** Asserts a 401 UNAUTHORIZED with the Bearer challenge. */
export function expectUnauthorized(res: ApiResponse) {
  expectError(res, 401, "UNAUTHORIZED");
  expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
}
