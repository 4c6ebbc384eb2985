import { describe, expect, it } from "vitest";
import { AccountNotFound, UnknownCompetition } from "../../src/commands/accounts/errors.js";
import { ConsumerNotFound } from "../../src/commands/consumers/errors.js";
import type { DomainError } from "../../src/commands/errors.js";
import { LedgerConflict } from "../../src/commands/submissions/errors.js";
import type { Router } from "../../src/http/api.js";
import { testApp } from "../support/app.js";

const refusals: Record<string, DomainError> = {
  "unknown-competition": new UnknownCompetition("account-1", [{ field: "competitionId", competitionId: "ipl" }]),
  "no-account": new AccountNotFound("account-1"),
  "no-consumer": new ConsumerNotFound(7),
  conflict: new LedgerConflict([
    { code: "EVENT_CONFLICT", message: "Sequence number 3 is held", field: "sequenceNumber", eventIndex: 0 },
  ]),
};

/** A route that only throws, as a command's route lets a refusal through: no try/catch. */
const registerRefusals = (app: Router) =>
  app.get("/api/v1/probe/refusals/:name", (c) => {
    throw refusals[c.req.param("name")];
  });

const refusal = (name: string) => testApp([registerRefusals]).app.request(`/api/v1/probe/refusals/${name}`);

describe("the app's onError answers a thrown DomainError", () => {
  it("VALIDATION_FAILED: 422 with the refusal's problems as details", async () => {
    const res = await refusal("unknown-competition");
    expect(res.status).toBe(422);
    expect(res.headers.get("API-Version")).toBe("v1");
    expect(await res.json()).toEqual({
      error: {
        code: "VALIDATION_FAILED",
        message: "The request body is invalid",
        details: [{ code: "COMPETITION_NOT_FOUND", message: "No competition ipl", field: "competitionId" }],
      },
    });
  });

  it.each([
    ["no-account", "No such user"],
    ["no-consumer", "No such API consumer"],
  ])("NOT_FOUND (%s): 404 with no details", async (name, message) => {
    const res = await refusal(name);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "NOT_FOUND", message } });
  });

  it("EVENT_CONFLICT: 409 saying where", async () => {
    const res = await refusal("conflict");
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: {
        code: "EVENT_CONFLICT",
        message: "The events conflict with accepted deliveries; nothing was stored",
        details: [
          { code: "EVENT_CONFLICT", message: "Sequence number 3 is held", field: "sequenceNumber", eventIndex: 0 },
        ],
      },
    });
  });
});
