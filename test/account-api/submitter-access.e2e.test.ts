import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AccountApi, type ApiUser, expectError, openAccountApi, type Person } from "../support/account-api.js";
import type { ApiResponse } from "../support/contract.js";
import type { CompetitionBuilder } from "../support/cricket-builders.js";

/**
 * The submitter-access lifecycle through HTTP (specification, "Account role and
 * submitter-access request"): every allowed row, every forbidden transition (409 with role,
 * state, scope and history unchanged), unknown competitions and malformed bodies (422),
 * unknown users (404), and that no request body can set a role or a scope.
 */
let a: AccountApi;
let admin: Person;
let ipl: CompetitionBuilder;
let bbl: CompetitionBuilder;
let psl: CompetitionBuilder;

beforeAll(async () => {
  a = await openAccountApi();
  admin = await a.anAdmin();
  [ipl, bbl, psl] = [
    await a.aRegisteredCompetition("Indian Premier League"),
    await a.aRegisteredCompetition("Big Bash League"),
    await a.aRegisteredCompetition("Pakistan Super League"),
  ];
});
afterAll(() => a?.close());

const users = "/api/v1/admin/users";
const request = (person: Person, body: unknown) =>
  a.api.post("/api/v1/submitter-access-requests", body, { token: person.token });
const decide = (userId: string, body: unknown, actor = admin) =>
  a.api.patch(`${users}/${userId}/submitter-access`, body, { token: actor.token });
const reject = (userId: string, actor = admin) =>
  a.api.post(`${users}/${userId}/submitter-access/rejection`, undefined, { token: actor.token });
const setRole = (userId: string, body: unknown, actor = admin) =>
  a.api.patch(`${users}/${userId}/role`, body, { token: actor.token });
const dataOf = (res: ApiResponse) => (res.body as { data: ApiUser }).data;

/** Someone with a pending request for `competition`. */
async function aRequester(competition = ipl): Promise<Person> {
  const person = await a.signIn();
  const res = await request(person, { competitionId: competition.id });
  expect(res.status, res.text).toBe(200);
  return person;
}

/**
 * Runs `attempt` and checks it was refused with `status`/`code` and left the account
 * exactly as it was: the user GET /auth/me shows, the admin list's entry, and its stream.
 */
async function refusedWithoutChange(
  person: Person,
  attempt: () => Promise<ApiResponse>,
  status = 409,
  code = "INVALID_SUBMITTER_ACCESS_TRANSITION",
) {
  const [user, listed, history] = [await a.me(person), await listedUser(person.id), await a.history(person.id)];
  const res = await attempt();
  expectError(res, status, code);
  expect(await a.me(person)).toEqual(user);
  expect(await listedUser(person.id)).toEqual(listed);
  expect(await a.history(person.id)).toEqual(history);
  return res;
}

/** The user as the admin list shows it (undefined when not listed). */
async function listedUser(id: string) {
  const res = await a.api.get(`${users}?limit=100`, { token: admin.token });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: (ApiUser & { email: string | null })[] }).data.find((u) => u.id === id);
}

describe("the allowed transitions", () => {
  it("request → approve: a submitter with exactly the requested competition", async () => {
    const person = await a.signIn();
    const requested = await request(person, { competitionId: ipl.id });
    expect(requested.status, requested.text).toBe(200);
    expect(requested.body).toEqual({
      data: {
        accountId: person.id,
        approvalState: "pending",
        requestedCompetition: { competitionId: ipl.id, name: "Indian Premier League" },
      },
    });
    expect(await a.me(person)).toMatchObject({
      role: "viewer",
      approvalState: "pending",
      requestedCompetition: { competitionId: ipl.id, name: "Indian Premier League" },
      competitionIds: [],
    });

    const approved = await decide(person.id, { approved: true });
    expect(approved.status, approved.text).toBe(200);
    const expected = {
      id: person.id,
      subject: person.subject,
      displayName: "Jo Bloggs",
      role: "submitter",
      approvalState: "approved",
      requestedCompetition: { competitionId: ipl.id, name: "Indian Premier League" },
      competitionIds: [ipl.id],
    };
    expect(dataOf(approved)).toEqual(expected);
    expect(await a.me(person)).toEqual(expected);
    expect(await listedUser(person.id)).toEqual({ ...expected, email: person.email });
    expect(await a.history(person.id)).toEqual([
      "AccountCreated",
      "SubmitterAccessRequested",
      "SubmitterAccessApproved",
    ]);
    const [, , approval] = await a.world.store.readStream(`account-${person.id}`);
    expect(approval?.data).toEqual({ competitionIds: [ipl.id], decidedBy: admin.id });
    expect(approval?.metadata.actor).toBe(admin.id);
  });

  it("approves with competitionIds naming exactly the stored competition", async () => {
    const person = await aRequester(bbl);
    const approved = await decide(person.id, { approved: true, competitionIds: [bbl.id] });
    expect(approved.status, approved.text).toBe(200);
    expect(dataOf(approved)).toMatchObject({ role: "submitter", competitionIds: [bbl.id] });
  });

  it("request → reject: a viewer without scope, rejected, who may request again", async () => {
    const person = await aRequester();
    const rejected = await reject(person.id);
    expect(rejected.status, rejected.text).toBe(200);
    expect(dataOf(rejected)).toMatchObject({ role: "viewer", approvalState: "rejected", competitionIds: [] });
    expect(await a.me(person)).toMatchObject({ role: "viewer", approvalState: "rejected", competitionIds: [] });

    const again = await request(person, { competitionId: bbl.id });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual({
      data: {
        accountId: person.id,
        approvalState: "pending",
        requestedCompetition: { competitionId: bbl.id, name: "Big Bash League" },
      },
    });
    const approved = await decide(person.id, { approved: true });
    expect(dataOf(approved)).toMatchObject({ role: "submitter", competitionIds: [bbl.id] });
  });

  it("replaces an approved submitter's scope, sorted and without duplicates; the same scope again appends nothing", async () => {
    const person = await a.aSubmitter(admin, ipl.id);
    const scope = [psl.id, bbl.id, psl.id];
    const replaced = await decide(person.id, { approved: true, competitionIds: scope });
    expect(replaced.status, replaced.text).toBe(200);
    const sorted = [bbl.id, psl.id].sort();
    expect(dataOf(replaced)).toMatchObject({ role: "submitter", approvalState: "approved", competitionIds: sorted });
    expect(await a.me(person)).toMatchObject({ role: "submitter", competitionIds: sorted });

    const history = await a.history(person.id);
    const same = await decide(person.id, { approved: true, competitionIds: [...sorted].reverse() });
    expect(same.status).toBe(200);
    expect(dataOf(same).competitionIds).toEqual(sorted);
    expect(await a.history(person.id)).toEqual(history);
  });

  it("revokes (approved false): back to viewer, every scope removed, the approved decision kept", async () => {
    const person = await a.aSubmitter(admin, ipl.id);
    await decide(person.id, { approved: true, competitionIds: [ipl.id, bbl.id] });
    const revoked = await decide(person.id, { approved: false });
    expect(revoked.status, revoked.text).toBe(200);
    const expected = {
      role: "viewer",
      approvalState: "approved",
      requestedCompetition: { competitionId: ipl.id, name: "Indian Premier League" },
      competitionIds: [],
    };
    expect(dataOf(revoked)).toMatchObject(expected);
    expect(await a.me(person)).toMatchObject(expected);
    expect((await a.history(person.id)).at(-1)).toBe("SubmitterAccessRevoked");
  });

  it("promotes a viewer and a submitter to admin, who may then act as one", async () => {
    const viewer = await a.signIn();
    const promoted = await setRole(viewer.id, { role: "admin" });
    expect(promoted.status, promoted.text).toBe(200);
    expect(dataOf(promoted)).toMatchObject({ id: viewer.id, role: "admin" });
    expect(await a.me(viewer)).toMatchObject({ role: "admin" });

    const submitter = await a.aSubmitter(admin, ipl.id);
    const promotedSubmitter = await setRole(submitter.id, { role: "admin" }, viewer);
    expect(promotedSubmitter.status, promotedSubmitter.text).toBe(200);
    expect(dataOf(promotedSubmitter).role).toBe("admin");
    expect((await a.world.store.readStream(`account-${submitter.id}`)).at(-1)?.data).toEqual({
      role: "admin",
      decidedBy: viewer.id,
    });
  });
});

describe("forbidden transitions: 409 INVALID_SUBMITTER_ACCESS_TRANSITION, nothing changed", () => {
  it("a second request while one is pending", async () => {
    const person = await aRequester();
    await refusedWithoutChange(person, () => request(person, { competitionId: ipl.id }));
    await refusedWithoutChange(person, () => request(person, { competitionId: bbl.id }));
  });

  it("a request by a submitter, and after a revocation (the approval is kept)", async () => {
    const person = await a.aSubmitter(admin, ipl.id);
    await refusedWithoutChange(person, () => request(person, { competitionId: bbl.id }));
    await decide(person.id, { approved: false });
    await refusedWithoutChange(person, () => request(person, { competitionId: bbl.id }));
  });

  it("a request by an admin", async () => {
    const other = await a.anAdmin();
    await refusedWithoutChange(other, () => request(other, { competitionId: ipl.id }));
  });

  it("approving, rejecting or revoking a viewer who never asked", async () => {
    const person = await a.signIn();
    await refusedWithoutChange(person, () => decide(person.id, { approved: true }));
    await refusedWithoutChange(person, () => decide(person.id, { approved: true, competitionIds: [ipl.id] }));
    await refusedWithoutChange(person, () => reject(person.id));
    await refusedWithoutChange(person, () => decide(person.id, { approved: false }));
  });

  it("approving with competitionIds other than the stored one", async () => {
    const person = await aRequester(ipl);
    await refusedWithoutChange(person, () => decide(person.id, { approved: true, competitionIds: [bbl.id] }));
    await refusedWithoutChange(person, () => decide(person.id, { approved: true, competitionIds: [ipl.id, bbl.id] }));
  });

  it("revoking a pending request (it must be rejected)", async () => {
    const person = await aRequester();
    await refusedWithoutChange(person, () => decide(person.id, { approved: false }));
  });

  it("an empty scope, on a pending request and for an approved submitter (revoke instead)", async () => {
    const requester = await aRequester();
    await refusedWithoutChange(requester, () => decide(requester.id, { approved: true, competitionIds: [] }));
    const submitter = await a.aSubmitter(admin, ipl.id);
    await refusedWithoutChange(submitter, () => decide(submitter.id, { approved: true, competitionIds: [] }));
  });

  it("rejecting when nothing is pending: after a rejection, for a submitter, after a revocation", async () => {
    const rejected = await aRequester();
    await reject(rejected.id);
    await refusedWithoutChange(rejected, () => reject(rejected.id));
    await refusedWithoutChange(rejected, () => decide(rejected.id, { approved: true }));

    const submitter = await a.aSubmitter(admin, ipl.id);
    await refusedWithoutChange(submitter, () => reject(submitter.id));
    await refusedWithoutChange(submitter, () => decide(submitter.id, { approved: true }));
    await decide(submitter.id, { approved: false });
    await refusedWithoutChange(submitter, () => reject(submitter.id));
    await refusedWithoutChange(submitter, () => decide(submitter.id, { approved: false }));
    await refusedWithoutChange(submitter, () => decide(submitter.id, { approved: true, competitionIds: [ipl.id] }));
  });

  it("setting viewer or submitter through the role endpoint", async () => {
    const viewer = await a.signIn();
    await refusedWithoutChange(viewer, () => setRole(viewer.id, { role: "submitter" }));
    await refusedWithoutChange(viewer, () => setRole(viewer.id, { role: "viewer" }));
    const submitter = await a.aSubmitter(admin, ipl.id);
    await refusedWithoutChange(submitter, () => setRole(submitter.id, { role: "viewer" }));
    await refusedWithoutChange(submitter, () => setRole(submitter.id, { role: "submitter" }));
  });

  it("demoting, re-promoting or managing the access of another admin", async () => {
    const other = await a.anAdmin();
    await refusedWithoutChange(other, () => setRole(other.id, { role: "viewer" }));
    await refusedWithoutChange(other, () => setRole(other.id, { role: "submitter" }));
    await refusedWithoutChange(other, () => setRole(other.id, { role: "admin" }));
    await refusedWithoutChange(other, () => decide(other.id, { approved: false }));
    await refusedWithoutChange(other, () => reject(other.id));
  });

  it("an admin managing themself", async () => {
    await refusedWithoutChange(admin, () => setRole(admin.id, { role: "admin" }));
    await refusedWithoutChange(admin, () => setRole(admin.id, { role: "viewer" }));
    await refusedWithoutChange(admin, () => decide(admin.id, { approved: false }));
    await refusedWithoutChange(admin, () => reject(admin.id));
  });

  it("promoting, approving or rejecting a disabled user", async () => {
    const disabled = await a.aDisabledAccount();
    const history = await a.history(disabled.id);
    for (const attempt of [
      () => setRole(disabled.id, { role: "admin" }),
      () => decide(disabled.id, { approved: true }),
      () => reject(disabled.id),
    ]) {
      expectError(await attempt(), 409, "INVALID_SUBMITTER_ACCESS_TRANSITION");
    }
    expect(await a.history(disabled.id)).toEqual(history);
    expect(await listedUser(disabled.id)).toBeUndefined();
  });
});

describe("unknown competitions and users", () => {
  it("refuses a request for a competition that does not exist with 422, changing nothing", async () => {
    const person = await a.signIn();
    const res = await refusedWithoutChange(
      person,
      () => request(person, { competitionId: `missing-${randomUUID()}` }),
      422,
      "VALIDATION_FAILED",
    );
    expect((res.body as { error: { details: { field: string }[] } }).error.details).toEqual([
      expect.objectContaining({ field: "competitionId" }),
    ]);
  });

  it("refuses a scope naming a competition that does not exist with 422, changing nothing", async () => {
    const person = await a.aSubmitter(admin, ipl.id);
    const res = await refusedWithoutChange(
      person,
      () => decide(person.id, { approved: true, competitionIds: [bbl.id, "no-such-competition"] }),
      422,
      "VALIDATION_FAILED",
    );
    expect((res.body as { error: { details: { field: string }[] } }).error.details).toEqual([
      expect.objectContaining({ field: "competitionIds.1" }),
    ]);
  });

  it("answers 404 for a user that does not exist, on every admin decision", async () => {
    const missing = randomUUID();
    expectError(await decide(missing, { approved: true }), 404, "NOT_FOUND");
    expectError(await decide(missing, { approved: false }), 404, "NOT_FOUND");
    expectError(await reject(missing), 404, "NOT_FOUND");
    expectError(await setRole(missing, { role: "admin" }), 404, "NOT_FOUND");
    expectError(await setRole(encodeURIComponent("a b/../c"), { role: "admin" }), 404, "NOT_FOUND");
    expect(await a.history(missing)).toEqual([]);
  });

  it("answers 409 for a deleted (tombstoned) user", async () => {
    const person = await a.signIn();
    expect((await a.api.delete("/api/v1/account", { confirmation: "DELETE" }, { token: person.token })).status).toBe(
      204,
    );
    expectError(await setRole(person.id, { role: "admin" }), 409, "INVALID_SUBMITTER_ACCESS_TRANSITION");
  });
});

describe("malformed bodies: 422 VALIDATION_FAILED (400 INVALID_JSON when not JSON, 415 when not sent as JSON), nothing changed", () => {
  const invalid = (res: ApiResponse) =>
    (res.body as { error: { details: { code: string; field: string }[] } }).error.details.map((d) => d.field);

  it.each([
    ["a missing competitionId", {}, ["competitionId"]],
    ["a numeric competitionId", { competitionId: 7 }, ["competitionId"]],
    ["an empty competitionId", { competitionId: "" }, ["competitionId"]],
    ["an array", [], ["body"]],
    ["null", null, ["body"]],
    ["an extra field", { competitionId: "x", note: "please" }, ["note"]],
  ])("a request with %s", async (_, body, fields) => {
    const person = await a.signIn();
    const res = await refusedWithoutChange(
      person,
      () => request(person, body === null ? "null" : body),
      422,
      "VALIDATION_FAILED",
    );
    expect(invalid(res)).toEqual(fields);
  });

  it("tells a missing field it is required, and a mistyped one what it should be", async () => {
    const person = await a.signIn();
    const messages = async (body: unknown) => {
      const res = await refusedWithoutChange(person, () => request(person, body), 422, "VALIDATION_FAILED");
      return (res.body as { error: { details: { message: string }[] } }).error.details.map((d) => d.message);
    };
    expect(await messages({})).toEqual(["Required"]);
    expect(await messages({ competitionId: 7 })).not.toEqual(["Required"]);
  });

  it.each([
    ["no approved", {}, ["approved"]],
    ["a string approved", { approved: "true" }, ["approved"]],
    ["competitionIds not an array", { approved: true, competitionIds: "ipl" }, ["competitionIds"]],
    ["a numeric competition", { approved: true, competitionIds: [1] }, ["competitionIds.0"]],
    ["competitionIds with approved false", { approved: false, competitionIds: ["ipl"] }, ["competitionIds"]],
    ["an extra field", { approved: true, comment: "ok" }, ["comment"]],
  ])("a decision with %s", async (_, body, fields) => {
    const person = await aRequester();
    const res = await refusedWithoutChange(person, () => decide(person.id, body), 422, "VALIDATION_FAILED");
    expect(invalid(res)).toEqual(fields);
  });

  it.each([
    ["no role", {}, ["role"]],
    ["an unknown role", { role: "owner" }, ["role"]],
    ["a role of the wrong type", { role: ["admin"] }, ["role"]],
  ])("a role change with %s", async (_, body, fields) => {
    const person = await a.signIn();
    const res = await refusedWithoutChange(person, () => setRole(person.id, body), 422, "VALIDATION_FAILED");
    expect(invalid(res)).toEqual(fields);
  });

  it("a body that is not JSON is 400 INVALID_JSON", async () => {
    const person = await a.signIn();
    await refusedWithoutChange(person, () => request(person, "{"), 400, "INVALID_JSON");
    await refusedWithoutChange(person, () => decide(person.id, "{approved: true}"), 400, "INVALID_JSON");
    await refusedWithoutChange(person, () => setRole(person.id, "admin"), 400, "INVALID_JSON");
    await refusedWithoutChange(
      person,
      () => a.api.delete("/api/v1/account", "confirmation=DELETE", { token: person.token }),
      400,
      "INVALID_JSON",
    );
  });

  it("a body over 1 MB is 413 PAYLOAD_TOO_LARGE, also on the rejection that takes none", async () => {
    const person = await aRequester();
    const big = JSON.stringify({ competitionId: "x".repeat(1024 * 1024) });
    await refusedWithoutChange(person, () => request(person, big), 413, "PAYLOAD_TOO_LARGE");
    await refusedWithoutChange(person, () => decide(person.id, big), 413, "PAYLOAD_TOO_LARGE");
    await refusedWithoutChange(
      person,
      () => a.api.post(`${users}/${person.id}/submitter-access/rejection`, big, { token: admin.token }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
  });

  it("a JSON body labelled with another media type, or with none, is 415 UNSUPPORTED_MEDIA_TYPE", async () => {
    const person = await a.signIn();
    for (const headers of [{ "content-type": "text/plain" }, { "content-type": "" }])
      await refusedWithoutChange(
        person,
        () =>
          a.api.call("POST", "/api/v1/submitter-access-requests", {
            token: person.token,
            headers,
            body: JSON.stringify({ competitionId: ipl.id }),
          }),
        415,
        "UNSUPPORTED_MEDIA_TYPE",
      );
  });

  it("a body sent to the rejection, which takes none, is 422 naming `body`; an empty one is no body", async () => {
    const person = await aRequester();
    for (const body of [{}, { reason: "no" }, "not even JSON"]) {
      const res = await refusedWithoutChange(
        person,
        () => a.api.post(`${users}/${person.id}/submitter-access/rejection`, body, { token: admin.token }),
        422,
        "VALIDATION_FAILED",
      );
      expect(invalid(res)).toEqual(["body"]);
    }
    const empty = await a.api.call("POST", `${users}/${person.id}/submitter-access/rejection`, {
      token: admin.token,
      headers: { "content-type": "application/json" },
      body: "",
    });
    expect(empty.status, empty.text).toBe(200);
    expect((empty.body as { data: ApiUser }).data.approvalState).toBe("rejected");
  });
});

describe("no request body can set a role or a scope", () => {
  it("a request carrying role, scope or state fields is refused whole", async () => {
    const person = await a.signIn();
    for (const extra of [
      { role: "admin" },
      { role: "submitter" },
      { competitionIds: [ipl.id] },
      { approvalState: "approved" },
      { approved: true },
    ]) {
      const res = await refusedWithoutChange(
        person,
        () => request(person, { competitionId: ipl.id, ...extra }),
        422,
        "VALIDATION_FAILED",
      );
      expect(JSON.stringify(res.body)).toContain(Object.keys(extra)[0]);
    }
    expect(await a.me(person)).toMatchObject({ role: "viewer", approvalState: null, competitionIds: [] });
  });

  it("a role change carrying a scope, and a decision carrying a role, are refused whole", async () => {
    const viewer = await a.signIn();
    await refusedWithoutChange(
      viewer,
      () => setRole(viewer.id, { role: "admin", competitionIds: [ipl.id] }),
      422,
      "VALIDATION_FAILED",
    );
    const requester = await aRequester();
    await refusedWithoutChange(
      requester,
      () => decide(requester.id, { approved: true, role: "admin" }),
      422,
      "VALIDATION_FAILED",
    );
    await refusedWithoutChange(
      requester,
      () => decide(requester.id, { approved: true, competitionIds: [ipl.id], role: "admin" }),
      422,
      "VALIDATION_FAILED",
    );
  });

  it("an account deletion carrying a role is refused whole", async () => {
    const person = await a.signIn();
    await refusedWithoutChange(
      person,
      () => a.api.delete("/api/v1/account", { confirmation: "DELETE", role: "admin" }, { token: person.token }),
      422,
      "VALIDATION_FAILED",
    );
  });

  it("a submitter whose token claims admin stays a submitter of its granted scope", async () => {
    const person = await a.aSubmitter(admin, ipl.id);
    const token = await a.tokenFor(person.subject, {
      role: "admin",
      app_metadata: { role: "admin", competitionIds: [bbl.id, psl.id] },
      user_metadata: { name: "Jo Bloggs", role: "admin", competitionIds: [bbl.id] },
    });
    expect(await a.me({ token })).toMatchObject({ role: "submitter", competitionIds: [ipl.id] });
    expectError(await a.api.get(users, { token }), 403, "FORBIDDEN");
    const other = await a.signIn();
    expectError(await setRole(other.id, { role: "admin" }, { ...person, token }), 403, "FORBIDDEN");
  });
});
