import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { request, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrapAdmin, requestDeletion } from "../../src/commands/accounts/handlers.js";
import { createLogger } from "../../src/http/logging.js";
import { passwordSignIn } from "../../src/identity/password-sign-in.js";
import { JOBS_PATH } from "../../src/release-api/schemas.js";
import { UsageRecorder } from "../../src/usage/recorder.js";
import { releaseStream } from "../../streams/release.js";
import { type AccountApi, openAccountApi, type Person } from "../support/account-api.js";
import { testApp } from "../support/app.js";
import { aPackage, sendBatch } from "../support/batches.js";
import { developmentIdentity } from "../support/dev-identity.js";
import type { FailureMode } from "../support/identity-provider.js";
import { listening } from "../support/listening.js";

/**
 * The signed-in pages' refusals, by plain HTTP (the browser test walks the happy path): on a
 * service whose identity provider is configured, a session starts only from a token it
 * verifies, a form posted from another site or without a session does nothing, and what
 * the API would refuse is refused here in its words, on the page.
 */
let a: AccountApi;
let server: Server;
let base: string;
let competitionId: string;
let viewer: Person;

beforeAll(async () => {
  a = await openAccountApi();
  ({ server, base } = await listening(a.app));
  competitionId = (await a.aRegisteredCompetition()).id;
  viewer = await a.signIn({ name: "Vera Viewer" });
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await a?.close();
});

const SAME_SITE = { "Sec-Fetch-Site": "same-origin" };

/** Posts a form as a page of this site does; `session` is the cookie a sign-in set. */
const post = (
  path: string,
  form: Record<string, string>,
  { session = "", headers = SAME_SITE as Record<string, string>, on = base } = {},
) =>
  fetch(`${on}${path}`, {
    method: "POST",
    body: new URLSearchParams(form),
    headers: { ...headers, ...(session ? { Cookie: session } : {}) },
    redirect: "manual",
  });

/** Signs in with a provider's token on the sign-in page; the session cookie it set. */
async function sessionOf(person: Pick<Person, "token">, on = base): Promise<string> {
  const res = await post("/account/sign-in", { token: person.token }, { on });
  expect(res.status, await res.clone().text()).toBe(303);
  expect(res.headers.get("location")).toBe("/account");
  const cookie = res.headers.get("set-cookie") ?? "";
  expect(cookie).toMatch(/^cricket_session=[^;]+; .*Path=\/account; .*HttpOnly; .*SameSite=Strict/);
  return cookie.split(";")[0] as string;
}

const textOf = async (res: Response) => (await res.text()).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

describe("the signed-in pages, with an identity provider configured", () => {
  it("asks for the provider's token, not a name, and starts a session only from a token it verifies", async () => {
    const page = await fetch(`${base}/account`);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const text = await textOf(page);
    expect(text).toMatch(/paste the access token/);
    expect(text).not.toMatch(/Your name/);

    for (const token of ["", "not-a-token", `${viewer.token}x`]) {
      const refused = await post("/account/sign-in", { token });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("set-cookie")).toBeNull();
      expect(await textOf(refused)).toMatch(/That token is not valid here/);
    }
    // Without a development issuer, a name signs nobody in.
    expect((await post("/account/sign-in", { name: "chief" })).status).toBe(401);

    const session = await sessionOf(viewer);
    const signedIn = await fetch(`${base}/account`, { headers: { Cookie: session } });
    expect(await textOf(signedIn)).toMatch(/Vera Viewer Signed in as viewer\./);
    // The cookie is for the pages: the API takes bearer tokens alone.
    expect((await fetch(`${base}/api/v1/auth/me`, { headers: { Cookie: session } })).status).toBe(401);
  });

  it("ends a session whose account is disabled since: its pages ask to sign in again, its forms do nothing", async () => {
    const leaving = await a.signIn({ name: "Lee Leaving" });
    const session = await sessionOf(leaving);
    await requestDeletion(a.world.store, leaving.id, { now: new Date() });
    await a.world.catchUp();
    const page = await fetch(`${base}/account`, { headers: { Cookie: session } });
    expect(await textOf(page)).toMatch(/paste the access token/);
    expect(page.headers.get("set-cookie")).toMatch(/^cricket_session=;/);
    const form = await post("/account/access-request", { competitionId }, { session });
    expect(form.status).toBe(401);
    expect(await textOf(form)).toMatch(/Your session has ended: sign in again\./);
    expect(await a.history(leaving.id)).toEqual(["AccountCreated", "AccountDisabled"]);
  });

  it("finds a delivery's history by its event id, and says when there is none", async () => {
    const session = await sessionOf(await a.anAdmin());
    const as = { headers: { Cookie: session }, redirect: "manual" as const };
    const lookup = await fetch(`${base}/account/deliveries?eventId=%20abc%2Fdef%20`, as);
    expect(lookup.status).toBe(303);
    expect(lookup.headers.get("location")).toBe("/account/deliveries/abc%2Fdef");
    const empty = await fetch(`${base}/account/deliveries?eventId=`, as);
    expect(empty.headers.get("location")).toBe("/account");
    const unknown = await fetch(`${base}/account/deliveries/${randomUUID()}`, as);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("cache-control")).toBe("no-store");
  });

  it("does nothing for a form posted from another site, or without a session", async () => {
    const session = await sessionOf(viewer);
    const elsewhere: Record<string, string>[] = [
      { "Sec-Fetch-Site": "cross-site" },
      { Origin: "https://elsewhere.example" },
    ];
    for (const headers of elsewhere) {
      const res = await post("/account/access-request", { competitionId }, { session, headers });
      expect(res.status).toBe(403);
      expect(await textOf(res)).toMatch(/That form came from another site; nothing was done\./);
    }
    const anonymous = await post("/account/access-request", { competitionId });
    expect(anonymous.status).toBe(401);
    expect(await textOf(anonymous)).toMatch(/Your session has ended: sign in again\./);
    expect(await a.history(viewer.id)).toEqual(["AccountCreated"]);
  });

  it("shows the API's refusals on the page and changes nothing: a viewer's package, decision or history read, an unknown competition", async () => {
    const session = await sessionOf(viewer);
    const upload = new FormData();
    upload.set("package", new File(["{}"], "package.json", { type: "application/json" }));
    const batch = await fetch(`${base}/account/batches`, {
      method: "POST",
      body: upload,
      headers: { ...SAME_SITE, Cookie: session },
      redirect: "manual",
    });
    expect(batch.status).toBe(403);
    expect(await textOf(batch)).toMatch(/Only a submitter or an administrator may send batches/);

    const other = await a.signIn({ name: "Olga Other" });
    const decided = await post(`/account/users/${other.id}/approval`, {}, { session });
    expect(decided.status).toBe(403);
    expect(await textOf(decided)).toMatch(/Only an administrator may do this/);

    // A delivery's history is for whoever may correct it: a viewer is refused before anything is looked up.
    const history = await fetch(`${base}/account/deliveries/${competitionId}`, { headers: { Cookie: session } });
    expect(history.status).toBe(403);

    const unknown = await post("/account/access-request", { competitionId: "no-such-competition" }, { session });
    expect(unknown.status).toBe(422);
    expect(await textOf(unknown)).toMatch(/competition/i);
    expect(await a.history(viewer.id)).toEqual(["AccountCreated"]);
  });

  it("refuses a batch's review to its sender and to anyone who cannot see it, on the batch's page, deciding nothing", async () => {
    const competition = (await a.aRegisteredCompetition()) as Parameters<typeof aPackage>[0];
    const admin = await a.anAdmin();
    const sent = await sendBatch(a.api, aPackage(competition), { token: admin.token });
    expect(sent.status, sent.text).toBe(202);
    const reference = (sent.body as { data: { batchReference: string } }).data.batchReference;
    const review = (session: string, action = "review") =>
      post(`/account/batches/${reference}/${action}`, { decision: "approved", reason: "fine" }, { session });
    const own = await review(await sessionOf(admin));
    expect(own.status).toBe(403);
    expect(await textOf(own)).toMatch(/You sent this batch: another administrator reviews and publishes it/);
    // To anyone else the batch's page is one that does not exist, as its GET is.
    const stranger = await review(await sessionOf(viewer), "publication");
    expect(stranger.status).toBe(404);
    expect(await a.history(viewer.id)).toEqual(["AccountCreated"]);
    const batch = await a.api.get(`/api/v1/batches/${reference}`, { token: admin.token });
    expect((batch.body as { data: { review: { approved: number } } }).data.review.approved).toBe(0);
  });

  it("shows why a submitter's package cannot be received, and stores nothing", async () => {
    const submitter = await a.aSubmitter(await a.anAdmin(), competitionId);
    const session = await sessionOf(submitter);
    const send = async (name: string, content: string, idempotencyKey: string = randomUUID()) => {
      const form = new FormData();
      form.set("package", new File([content], name));
      form.set("idempotencyKey", idempotencyKey);
      return fetch(`${base}/account/batches`, {
        method: "POST",
        body: form,
        headers: { ...SAME_SITE, Cookie: session },
        redirect: "manual",
      });
    };
    const keyless = await send("package.json", "{}", "");
    expect(keyless.status).toBe(400);
    expect(await textOf(keyless)).toMatch(/idempotencyKey: 1 to 255 visible ASCII characters/);
    const notJson = await send("package.json", "{nope");
    expect(notJson.status).toBe(422);
    expect(await textOf(notJson)).toMatch(/The file is not JSON/);
    const wrongKind = await send("package.txt", "hello");
    expect(wrongKind.status).toBe(415);
    expect(await textOf(wrongKind)).toMatch(/Choose a package file ending in \.json, \.csv or \.xlsx/);
    const noHead = await send("package.json", JSON.stringify({ contractVersion: "9.9" }));
    expect(noHead.status).toBe(422);
    expect(await textOf(noHead)).toMatch(/packageId: Required competition: Required/);
    const batches = await a.api.get("/api/v1/batches", { token: submitter.token });
    expect((batches.body as { data: unknown[] }).data).toEqual([]);
  });
});

describe("the signed-in pages on the embedded default's development issuer", () => {
  let local: { server: Server; base: string };
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "cricket-dev-issuer-"));
    const identity = await developmentIdentity(dataDir);
    local = await listening(testApp(undefined, a.deps({ identity, limits: { batchesPerMinute: 1 } })).app);
  });
  afterAll(async () => {
    await new Promise((resolve) => local?.server.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A raw POST, so the Host header can be what a rebinding page or a proxy would send. */
  const raw = (target: string, body: string, headers: Record<string, string>) =>
    new Promise<{ status: number; cookie: string | undefined; text: string }>((resolve, reject) => {
      const url = new URL(target, local.base);
      const req = request(url, { method: "POST", headers: { ...SAME_SITE, ...headers } }, (res) => {
        let text = "";
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, cookie: res.headers["set-cookie"]?.[0], text }));
      });
      req.on("error", reject);
      req.end(body);
    });
  const form = { "Content-Type": "application/x-www-form-urlencoded" };
  const host = () => new URL(local.base).host;

  it("signs in by name only a browser on this machine addressing it as this machine", async () => {
    const signedIn = await raw("/account/sign-in", "name=alice", { ...form, Host: host() });
    expect(signedIn.status).toBe(303);
    expect(signedIn.cookie).toMatch(/^cricket_session=/);
    expect(
      (await raw("/account/sign-in", "name=alice", { ...form, Host: `localhost:${local.base.split(":")[2]}` })).status,
    ).toBe(303);
    // A page of another site whose name resolves to 127.0.0.1 (DNS rebinding), or a proxy on this host.
    const notLocal: Record<string, string>[] = [
      { Host: "attacker.example" },
      { Host: host(), "X-Forwarded-For": "203.0.113.9" },
      { Host: host(), Forwarded: "for=203.0.113.9" },
    ];
    for (const headers of notLocal) {
      const refused = await raw("/account/sign-in", "name=alice", { ...form, ...headers });
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.cookie).toBeUndefined();
      expect(refused.text).toContain("Sign-in by name works only from this machine.");
    }
    for (const name of ["", "%00", "x".repeat(101)])
      expect((await raw("/account/sign-in", `name=${name}`, { ...form, Host: host() })).status).toBe(422);
  });

  it("answers a body that is not a form, and fields no database can hold, with 400 and 422, never 500", async () => {
    const signedIn = await raw("/account/sign-in", "name=bob", { ...form, Host: host() });
    const session = (signedIn.cookie ?? "").split(";")[0] as string;
    const as = { Host: host(), Cookie: session };
    const garbage = { "Content-Type": "multipart/form-data; boundary=zzz" };
    expect((await raw("/account/sign-in", "garbage", { ...garbage, Host: host() })).status).toBe(400);
    expect((await raw("/account/access-request", "garbage", { ...garbage, ...as })).status).toBe(400);
    // A field is refused as the API refuses a body's (422), a form that cannot be read as a body that is no JSON (400).
    expect((await raw("/account/access-request", "competitionId=%00", { ...form, ...as })).status).toBe(422);
    // A viewer deciding is refused before the path is read; an administrator's odd path below.
    expect((await raw("/account/users/%00/approval", "", { ...form, ...as })).status).toBe(403);
  });

  it("refuses an administrator's odd path and an upload holding text no database can hold, and counts uploads with the API's", async () => {
    const admin = "carol";
    await bootstrapAdmin(a.world.store, admin, { now: new Date() });
    await a.world.catchUp();
    const signedIn = await raw("/account/sign-in", `name=${admin}`, { ...form, Host: host() });
    const cookie = (signedIn.cookie ?? "").split(";")[0] as string;
    const upload = (fields: Record<string, string | Blob>) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields))
        body.set(name, value, ...(value instanceof Blob ? ["package.json"] : []));
      return fetch(`${local.base}/account/batches`, {
        method: "POST",
        body,
        headers: { ...SAME_SITE, Cookie: cookie },
        redirect: "manual",
      });
    };
    // Text no id can hold names no one, as in the API's path.
    expect((await raw("/account/users/%00/approval", "", { ...form, Host: host(), Cookie: cookie })).status).toBe(404);
    const unstorable = new Blob([JSON.stringify({ contractVersion: "1.1", packageId: "\u0000" })]);
    const held = await upload({ package: unstorable, idempotencyKey: "k1" });
    expect(held.status).toBe(422);
    expect(await textOf(held)).toMatch(/cannot be stored/);
    // One package a minute here, counted before the form is read, as the API counts them.
    const limited = await upload({ package: unstorable, idempotencyKey: "k2" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});

describe("the administrators' pages", () => {
  let admin: Person;
  let session: string;
  let usage: UsageRecorder;
  let keyed: { server: Server; base: string };
  beforeAll(async () => {
    // Keyed requests are counted as the service counts them, for the usage page to show.
    usage = new UsageRecorder(a.db.sql, createLogger("silent"));
    keyed = await listening(testApp(undefined, a.deps({ usage })).app);
    admin = await a.anAdmin();
    session = await sessionOf(admin, keyed.base);
  });
  afterAll(async () => {
    await new Promise((resolve) => keyed?.server.close(resolve));
    await usage?.close();
  });

  const as = (cookie = session) => ({ headers: { Cookie: cookie } });
  const users = async (cookie = session) => textOf(await fetch(`${keyed.base}/account/users`, as(cookie)));

  it("shows the users and changes a submitter's scope, revokes it and promotes a viewer, as the API's commands do", async () => {
    const second = (await a.aRegisteredCompetition("Second League")).id;
    const submitter = await a.aSubmitter(admin, competitionId);
    const other = await a.signIn({ name: "Otto Other" });
    expect(await users()).toMatch(/Otto Other viewer/);

    const scoped = await post(`/account/users/${submitter.id}/scope`, {}, { session, on: keyed.base });
    // A submitter keeps at least one competition: refused in the API's words, nothing changed.
    expect(scoped.status).toBe(409);
    expect((await a.me(submitter)).competitionIds).toEqual([competitionId]);
    const both = await fetch(`${keyed.base}/account/users/${submitter.id}/scope`, {
      method: "POST",
      body: new URLSearchParams([
        ["competitionIds", competitionId],
        ["competitionIds", second],
      ]),
      headers: { ...SAME_SITE, Cookie: session },
      redirect: "manual",
    });
    expect(both.status, await both.clone().text()).toBe(303);
    expect(both.headers.get("location")).toBe("/account/users?done=scoped");
    expect((await a.me(submitter)).competitionIds.sort()).toEqual([competitionId, second].sort());
    expect(await textOf(await fetch(`${keyed.base}/account/users?done=scoped`, as()))).toMatch(
      /The scope is changed\./,
    );

    expect((await post(`/account/users/${submitter.id}/revocation`, {}, { session, on: keyed.base })).status).toBe(303);
    expect(await a.me(submitter)).toMatchObject({ role: "viewer", competitionIds: [] });
    expect((await post(`/account/users/${other.id}/promotion`, {}, { session, on: keyed.base })).status).toBe(303);
    expect((await a.me(other)).role).toBe("admin");
    // No administrator changes their own role.
    const own = await post(`/account/users/${admin.id}/promotion`, {}, { session, on: keyed.base });
    expect(own.status).toBe(409);
  });

  it("refuses every administrator's page and form to anyone else, changing nothing", async () => {
    const viewerSession = await sessionOf(viewer, keyed.base);
    // Refused on their own account page, which they may see, never cached.
    for (const target of [
      "/account/users",
      "/account/api-consumers",
      "/account/api-consumers/1",
      "/account/releases",
    ]) {
      const res = await fetch(`${keyed.base}${target}`, as(viewerSession));
      expect(res.status, target).toBe(403);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await textOf(res)).toMatch(/Vera Viewer Signed in as viewer\. .*Only an administrator may do this/);
    }
    const forms: [string, Record<string, string>][] = [
      ["/account/api-consumers", { name: "Mine", rateLimitPerMinute: "60", dailyQuota: "100" }],
      ["/account/releases", { version: "9.9.9" }],
      [`/account/users/${viewer.id}/promotion`, {}],
    ];
    for (const [target, form] of forms) {
      const res = await post(target, form, { session: viewerSession, on: keyed.base });
      expect(res.status, target).toBe(403);
      expect(await textOf(res)).toMatch(/Vera Viewer Signed in as viewer\. .*Only an administrator may do this/);
    }
    expect(await a.world.store.readStream(releaseStream("9.9.9"))).toEqual([]);
    expect(await a.history(viewer.id)).toEqual(["AccountCreated"]);
    const consumers = await a.api.get("/api/v1/admin/api-consumers", { token: admin.token });
    expect((consumers.body as { data: { name: string }[] }).data.map((c) => c.name)).not.toContain("Mine");
    // Signed out, a page is the sign-in page.
    expect(await textOf(await fetch(`${keyed.base}/account/api-consumers`))).toMatch(/paste the access token/);
  });

  it("issues a consumer whose key is shown once and works, charts its usage, rotates and revokes keys", async () => {
    const refused = await post(
      "/account/api-consumers",
      { name: "", rateLimitPerMinute: "0", dailyQuota: "x" },
      { session, on: keyed.base },
    );
    expect(refused.status).toBe(422);
    expect(await textOf(refused)).toMatch(/name: .*rateLimitPerMinute: .*dailyQuota: /);

    const issued = await post(
      "/account/api-consumers",
      { name: "Fantasy XI", rateLimitPerMinute: "120", dailyQuota: "5000" },
      { session, on: keyed.base },
    );
    expect(issued.status).toBe(201);
    expect(issued.headers.get("cache-control")).toBe("no-store");
    const key = (await issued.text()).match(/value="(ck_[A-Za-z0-9_-]+)"/)?.[1] as string;
    expect(key).toBeDefined();
    const read = (apiKey: string, target = "/api/v1/consumer/usage") =>
      fetch(`${keyed.base}${target}`, { headers: { "X-API-Key": apiKey } });
    expect((await read(key)).status).toBe(200);
    expect((await read(key, "/api/v1/fixtures/no-such-fixture")).status).toBe(404);

    const list = await fetch(`${keyed.base}/account/api-consumers`, as());
    const listed = await textOf(list);
    expect(listed).toMatch(/Fantasy XI Consumer \d+: 120 requests a minute, 5,000 a day/);
    expect(listed).toContain(key.slice(0, 13));
    expect(listed).not.toContain(key);
    const consumerId = Number(listed.match(/Fantasy XI Consumer (\d+)/)?.[1]);

    const usagePage = await fetch(`${keyed.base}/account/api-consumers/${consumerId}`, as());
    expect(usagePage.status).toBe(200);
    const html = await usagePage.text();
    const today = new Date().toISOString().slice(0, 10);
    expect(html).toContain(`to ${today}: 2 in all, 1 2xx, 1 4xx.`);
    expect(html).toMatch(/<rect[^>]*><title>[0-9-]+: 1 2xx<\/title>/);
    const usageText = (await textOf(new Response(html))).replace(/\s+/g, " ");
    expect(usageText).toContain("GET /api/v1/consumer/usage 1 0");
    expect(usageText).toContain("GET /api/v1/fixtures/{fixtureId} 1 1");

    const unconfirmed = await post(
      `/account/api-consumers/${consumerId}/keys/rotation`,
      {},
      { session, on: keyed.base },
    );
    expect(unconfirmed.status).toBe(422);
    expect((await read(key)).status).toBe(200);
    // A consumer no key has used yet: its page says so, with an empty chart.
    const quiet = await post(
      "/account/api-consumers",
      { name: "Quiet one", rateLimitPerMinute: "60", dailyQuota: "100" },
      { session, on: keyed.base },
    );
    const quietId = (await textOf(await fetch(`${keyed.base}/account/api-consumers`, as()))).match(
      /Quiet one Consumer (\d+)/,
    )?.[1];
    expect(quiet.status).toBe(201);
    const quietPage = await textOf(await fetch(`${keyed.base}/account/api-consumers/${quietId}`, as()));
    expect(quietPage).toMatch(/No request in these dates\./);
    expect(quietPage).toMatch(/: 0 in all\./);

    const rotated = await post(
      `/account/api-consumers/${consumerId}/keys/rotation`,
      { confirm: "yes" },
      { session, on: keyed.base },
    );
    expect(rotated.status).toBe(200);
    const next = (await rotated.text()).match(/value="(ck_[A-Za-z0-9_-]+)"/)?.[1] as string;
    expect((await read(key)).status).toBe(401);
    expect((await read(next)).status).toBe(200);
    const revoked = await post(
      `/account/api-consumers/${consumerId}/keys/2/revocation`,
      {},
      { session, on: keyed.base },
    );
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe("/account/api-consumers?done=key-revoked");
    expect((await read(next)).status).toBe(401);

    // Another administrator's consumer is one that does not exist, an id that is none is 422, as the API says.
    const otherSession = await sessionOf(await a.anAdmin(), keyed.base);
    expect((await fetch(`${keyed.base}/account/api-consumers/${consumerId}`, as(otherSession))).status).toBe(404);
    expect(
      (
        await post(
          `/account/api-consumers/${consumerId}/keys/rotation`,
          { confirm: "yes" },
          { session: otherSession, on: keyed.base },
        )
      ).status,
    ).toBe(404);
    expect((await fetch(`${keyed.base}/account/api-consumers/abc`, as())).status).toBe(422);
    expect(
      (await post(`/account/api-consumers/${consumerId}/keys/0/revocation`, {}, { session, on: keyed.base })).status,
    ).toBe(422);
  });

  it("asks for a release and follows its job, refusing a version that is none", async () => {
    const bad = await post("/account/releases", { version: "1.0" }, { session, on: keyed.base });
    expect(bad.status).toBe(422);
    expect(await textOf(bad)).toMatch(/version: Expected MAJOR\.MINOR\.PATCH/);
    const asked = await post("/account/releases", { version: "3.1.4" }, { session, on: keyed.base });
    expect(asked.status).toBe(303);
    const job = asked.headers.get("location") as string;
    expect(job).toMatch(/^\/account\/releases\/jobs\/[0-9a-f-]{36}$/);
    const followed = await fetch(`${keyed.base}${job}`, as());
    const text = await followed.clone().text();
    expect(await textOf(followed)).toMatch(/Release 3\.1\.4 (Queued|Generating)/);
    // It reloads itself while the job works.
    expect(text).toContain('<meta http-equiv="refresh" content="2"/>');
    const stopped = await (await fetch(`${keyed.base}${job}?reload=off`, as())).text();
    expect(stopped).not.toContain("refresh");
    expect(stopped).toContain("Reloading is stopped.");
    const viaApi = await a.api.get(`${JOBS_PATH}/${job.split("/").pop()}`, {
      token: admin.token,
    });
    expect((viaApi.body as { data: { version: string } }).data.version).toBe("3.1.4");
    expect((await fetch(`${keyed.base}/account/releases/jobs/not-a-job`, as())).status).toBe(404);
  });
});

describe("signing in with an email and password at the identity provider", () => {
  let site: { server: Server; base: string };
  let logs: () => string;
  beforeAll(async () => {
    const deps = a.deps();
    const signIn = passwordSignIn({ url: a.provider.authUrl, publishableKey: a.provider.publishableKey });
    const app = testApp(undefined, {
      ...deps,
      identity: { ...deps.identity, passwordSignIn: signIn },
      trustedProxyHops: 1,
    });
    logs = app.rawLogs;
    site = await listening(app.app);
  });
  afterAll(async () => {
    a.provider.failures.signIn = undefined;
    await new Promise((resolve) => site?.server.close(resolve));
  });

  /** A sign-in from a client at `address` (said by the proxy this site trusts). */
  const signInWith = (email: string, password: string, address = "198.51.100.1") =>
    post(
      "/account/sign-in",
      { email, password },
      { on: site.base, headers: { ...SAME_SITE, "X-Forwarded-For": address } },
    );

  it("exchanges them at the provider for its token, and the session is that token's", async () => {
    const page = await textOf(await fetch(`${site.base}/account`));
    expect(page).toMatch(/Email Password Sign in/);
    expect(page).toMatch(/Or sign in with the identity provider, then paste the access token/);
    const email = `${randomUUID().slice(0, 8)}@example.com`;
    a.provider.addUser(email, { password: " correct horse ", name: "Pat Password" });
    const signedIn = await signInWith(email, " correct horse ");
    expect(signedIn.status, await signedIn.clone().text()).toBe(303);
    const session = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] as string;
    expect(session).toMatch(/^cricket_session=ey/);
    expect(await textOf(await fetch(`${site.base}/account`, { headers: { Cookie: session } }))).toMatch(
      /Pat Password Signed in as viewer\./,
    );
    // Every character of a password counts, and none is written to the log.
    const trimmed = await signInWith(email, "correct horse");
    expect(trimmed.status).toBe(401);
    expect(trimmed.headers.get("set-cookie")).toBeNull();
    expect(await textOf(trimmed)).toMatch(/The identity provider says: Invalid login credentials/);
    expect(logs()).not.toContain("correct horse");
  });

  it("says so when the provider does not answer as it should, or takes no more sign-ins", async () => {
    const failures: [FailureMode, number, RegExp][] = [
      ["status_500", 503, /The identity provider does not answer just now/],
      ["wrong_shape", 503, /The identity provider does not answer just now/],
      // A 400 that is not about the credentials is the configuration's: not shown in the provider's words.
      ["bad_request", 503, /The identity provider does not answer just now/],
      ["throttled", 429, /The identity provider takes no more sign-ins just now/],
    ];
    for (const [mode, status, says] of failures) {
      a.provider.failures.signIn = mode;
      const res = await signInWith(`${mode}@example.com`, "secret", `198.51.100.${failures.length}`);
      expect(res.status, mode).toBe(status);
      const text = await textOf(res);
      expect(text, mode).toMatch(says);
      expect(text).not.toMatch(/captcha/);
      if (mode === "throttled") expect(res.headers.get("retry-after")).toBe("17");
    }
    a.provider.failures.signIn = undefined;
  });

  it("counts attempts per client and per email before asking the provider", async () => {
    // Ten a minute from one client (the provider sees them all as this server's), then 429.
    const fromOne = async () => {
      for (let n = 0; n < 25; n++) {
        const res = await signInWith(`guess-${n}@example.com`, "wrong", "203.0.113.7");
        if (res.status === 429) return res;
      }
      throw new Error("one client was never refused");
    };
    const refused = await fromOne();
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await textOf(refused)).toMatch(/At most 10 requests per 60 seconds/);
    // Ten in a quarter of an hour for one email, whichever clients they come from.
    let status = 0;
    for (let n = 0; n < 25 && status !== 429; n++)
      status = (await signInWith("target@example.com", `guess ${n}`, `192.0.2.${n + 1}`)).status;
    expect(status).toBe(429);
    expect(a.provider.requests.signIn).toBeGreaterThan(0);
  });
});
