import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AccountApi,
  expectError,
  expectUnauthorized,
  openAccountApi,
  type Person,
} from "../support/account-api.js";
import type { ApiResponse } from "../support/contract.js";
import type { CompetitionBuilder } from "../support/cricket-builders.js";

/**
 * The authorisation matrix of the Application access class: every account and access
 * route, tried by every kind of caller. Each cell gets fresh accounts, so a cell's own
 * effect (a deletion, a promotion) cannot change another's outcome. A refused cell also
 * leaves the target account's history untouched.
 */
let a: AccountApi;
let admin: Person;
let ipl: CompetitionBuilder;
let bbl: CompetitionBuilder;

beforeAll(async () => {
  a = await openAccountApi();
  admin = await a.anAdmin();
  [ipl, bbl] = [await a.aRegisteredCompetition(), await a.aRegisteredCompetition()];
});
afterAll(() => a?.close());

type CallerKind =
  | "no token"
  | "bad token"
  | "viewer"
  | "submitter in scope"
  | "submitter out of scope"
  | "admin"
  | "disabled";

/** The caller's token (undefined: no Authorization header). */
async function callerOf(kind: CallerKind): Promise<{ token: string | undefined }> {
  switch (kind) {
    case "no token":
      return { token: undefined };
    case "bad token":
      return { token: "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl" };
    case "viewer":
      return a.signIn();
    // The target below asks for `ipl`: "in scope" holds it, "out of scope" another competition.
    case "submitter in scope":
      return a.aSubmitter(admin, ipl.id);
    case "submitter out of scope":
      return a.aSubmitter(admin, bbl.id);
    case "admin":
      return a.anAdmin();
    case "disabled":
      return a.aDisabledAccount();
  }
}

type Route = {
  name: string;
  /** Whether the route acts on another user (the target, a viewer with a pending request for `ipl`). */
  targeted: boolean;
  send(token: string | undefined, targetId: string): Promise<ApiResponse>;
};

const routes: Route[] = [
  { name: "GET /auth/me", targeted: false, send: (token) => a.api.get("/api/v1/auth/me", { token }) },
  {
    name: "DELETE /account",
    targeted: false,
    send: (token) => a.api.delete("/api/v1/account", { confirmation: "DELETE" }, { token }),
  },
  {
    name: "POST /submitter-access-requests",
    targeted: false,
    send: (token) => a.api.post("/api/v1/submitter-access-requests", { competitionId: ipl.id }, { token }),
  },
  { name: "GET /admin/users", targeted: false, send: (token) => a.api.get("/api/v1/admin/users", { token }) },
  {
    name: "PATCH /admin/users/{userId}/submitter-access",
    targeted: true,
    send: (token, id) => a.api.patch(`/api/v1/admin/users/${id}/submitter-access`, { approved: true }, { token }),
  },
  {
    name: "POST /admin/users/{userId}/submitter-access/rejection",
    targeted: true,
    send: (token, id) => a.api.post(`/api/v1/admin/users/${id}/submitter-access/rejection`, undefined, { token }),
  },
  {
    name: "PATCH /admin/users/{userId}/role",
    targeted: true,
    send: (token, id) => a.api.patch(`/api/v1/admin/users/${id}/role`, { role: "admin" }, { token }),
  },
];

const callers: CallerKind[] = [
  "no token",
  "bad token",
  "viewer",
  "submitter in scope",
  "submitter out of scope",
  "admin",
  "disabled",
];

type Expected = 401 | 403 | "allowed";
/** Rows: routes; columns: callers, in the order of `callers`. */
const matrix: Record<string, Expected[]> = {
  "GET /auth/me": [401, 401, "allowed", "allowed", "allowed", "allowed", 403],
  // A disabled account may repeat its deletion (specification, "Account deletion": retry after a failure).
  "DELETE /account": [401, 401, "allowed", "allowed", "allowed", "allowed", "allowed"],
  "POST /submitter-access-requests": [401, 401, "allowed", "allowed", "allowed", "allowed", 403],
  "GET /admin/users": [401, 401, 403, 403, 403, "allowed", 403],
  "PATCH /admin/users/{userId}/submitter-access": [401, 401, 403, 403, 403, "allowed", 403],
  "POST /admin/users/{userId}/submitter-access/rejection": [401, 401, 403, 403, 403, "allowed", 403],
  "PATCH /admin/users/{userId}/role": [401, 401, 403, 403, 403, "allowed", 403],
};

/** The exact answer of an allowed cell, so "allowed" cannot hide a 500. */
const allowedStatus: Record<string, Partial<Record<CallerKind, number>> & { default: number }> = {
  "GET /auth/me": { default: 200 },
  "DELETE /account": { default: 204 },
  // Only a viewer without a request may ask; submitters and admins are refused by the state machine.
  "POST /submitter-access-requests": { default: 409, viewer: 200 },
  "GET /admin/users": { default: 200 },
  "PATCH /admin/users/{userId}/submitter-access": { default: 200 },
  "POST /admin/users/{userId}/submitter-access/rejection": { default: 200 },
  "PATCH /admin/users/{userId}/role": { default: 200 },
};

const cells = routes.flatMap((route) =>
  callers.map((caller, column) => ({ route, caller, expected: matrix[route.name]?.[column] as Expected })),
);

describe("authorisation matrix", () => {
  it("covers every route and every caller", () => {
    expect(Object.keys(matrix)).toEqual(routes.map((r) => r.name));
    for (const row of Object.values(matrix)) expect(row).toHaveLength(callers.length);
    // Every operation of the "Account and access" tag the app publishes is in the matrix.
    const documented = Object.entries(a.api.document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => (operation as { tags?: string[] }).tags?.includes("Account and access"))
        .map(([method]) => `${method.toUpperCase()} ${path.replace("/api/v1", "")}`),
    );
    expect(documented.sort()).toEqual(routes.map((r) => r.name).sort());
  });

  it.each(cells.map((c) => [c.route.name, c.caller, String(c.expected), c] as const))(
    "%s by %s → %s",
    async (_route, _caller, _expected, { route, caller, expected }) => {
      const target = route.targeted ? await a.signIn() : undefined;
      if (target) {
        const asked = await a.api.post(
          "/api/v1/submitter-access-requests",
          { competitionId: ipl.id },
          { token: target.token },
        );
        expect(asked.status).toBe(200);
      }
      const before = target ? await a.history(target.id) : [];
      const { token } = await callerOf(caller);

      const res = await route.send(token, target?.id ?? "");

      if (expected === 401) expectUnauthorized(res);
      else if (expected === 403) {
        expectError(res, 403, "FORBIDDEN");
        expect(res.headers.get("www-authenticate")).toBeNull();
      } else {
        const statuses = allowedStatus[route.name];
        expect(res.status, res.text).toBe(statuses?.[caller] ?? statuses?.default);
      }
      if (target && expected !== "allowed") expect(await a.history(target.id)).toEqual(before);
    },
  );
});

describe("refusals come before anything about the request", () => {
  it("without credentials, a malformed body or an unknown user is still 401", async () => {
    expectUnauthorized(await a.api.post("/api/v1/submitter-access-requests", { nonsense: true }));
    expectUnauthorized(await a.api.post("/api/v1/submitter-access-requests", "{"));
    expectUnauthorized(await a.api.delete("/api/v1/account", { confirmation: "nope" }));
    expectUnauthorized(await a.api.patch(`/api/v1/admin/users/${randomUUID()}/role`, { role: "owner" }));
    expectUnauthorized(await a.api.get("/api/v1/admin/users?limit=0"));
  });

  it("for a non-admin, a malformed body, a bad query or an unknown user is still 403", async () => {
    const viewer = await a.signIn();
    const token = viewer.token;
    expectError(
      await a.api.patch(`/api/v1/admin/users/${randomUUID()}/role`, { role: "owner" }, { token }),
      403,
      "FORBIDDEN",
    );
    expectError(
      await a.api.patch(`/api/v1/admin/users/${randomUUID()}/submitter-access`, "{", { token }),
      403,
      "FORBIDDEN",
    );
    expectError(await a.api.get("/api/v1/admin/users?limit=0&cursor=x", { token }), 403, "FORBIDDEN");
  });

  it("a disabled account's malformed body is 403, except on the deletion it may repeat", async () => {
    const disabled = await a.aDisabledAccount();
    expectError(await a.api.post("/api/v1/submitter-access-requests", {}, { token: disabled.token }), 403, "FORBIDDEN");
    expectError(
      await a.api.delete("/api/v1/account", { confirmation: "delete" }, { token: disabled.token }),
      422,
      "VALIDATION_FAILED",
    );
  });

  it("an admin whose account was disabled loses the admin routes at once", async () => {
    const former = await a.anAdmin();
    const target = await a.signIn();
    a.provider.failures.admin = "status_500"; // the deletion stops after disabling the account
    try {
      const res = await a.api.delete("/api/v1/account", { confirmation: "DELETE" }, { token: former.token });
      expectError(res, 503, "IDENTITY_PROVIDER_UNAVAILABLE");
    } finally {
      a.provider.failures.admin = undefined;
    }
    expectError(await a.api.get("/api/v1/admin/users", { token: former.token }), 403, "FORBIDDEN");
    expectError(
      await a.api.patch(`/api/v1/admin/users/${target.id}/role`, { role: "admin" }, { token: former.token }),
      403,
      "FORBIDDEN",
    );
    expect(await a.me(target)).toMatchObject({ role: "viewer" });
  });
});
