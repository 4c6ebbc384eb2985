import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AccountApi, openAccountApi, type Person } from "../support/account-api.js";
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
  { session = "", headers = SAME_SITE as Record<string, string> } = {},
) =>
  fetch(`${base}${path}`, {
    method: "POST",
    body: new URLSearchParams(form),
    headers: { ...headers, ...(session ? { Cookie: session } : {}) },
    redirect: "manual",
  });

/** Signs in with a provider's token on the sign-in page; the session cookie it set. */
async function sessionOf(person: Pick<Person, "token">): Promise<string> {
  const res = await post("/account/sign-in", { token: person.token });
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

  it("shows why a submitter's package cannot be received, and stores nothing", async () => {
    const submitter = await a.aSubmitter(await a.anAdmin(), competitionId);
    const session = await sessionOf(submitter);
    const send = async (name: string, content: string) => {
      const form = new FormData();
      form.set("package", new File([content], name));
      return fetch(`${base}/account/batches`, {
        method: "POST",
        body: form,
        headers: { ...SAME_SITE, Cookie: session },
        redirect: "manual",
      });
    };
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
