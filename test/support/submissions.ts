import { expect } from "vitest";
import { type AccountApi, openAccountApi, type Person } from "./account-api.js";
import { testApp } from "./app.js";
import { type ApiResponse, contractClient } from "./contract.js";
import { dismissalKinds } from "./cricket-builders.js";
import { everyPage } from "./read-api.js";
import { anOpenFixture, KINDS, type SubmittedEvent } from "./submission-events.js";

export * from "./submission-events.js";

export type PublicEvent = SubmittedEvent & { fixtureId: string; revision: number };

export type Detail = { code: string; message: string; field: string; eventIndex?: number };

/** How a refused submission is answered: 422 with every problem, or 409 when all it has are conflicts. */
export type Refusal = { status: 409 | 422; code: string };
export const INVALID: Refusal = { status: 422, code: "VALIDATION_FAILED" };
export const DUPLICATE: Refusal = { status: 409, code: "DUPLICATE_EVENT_ID" };
export const CONFLICT: Refusal = { status: 409, code: "EVENT_CONFLICT" };

/** The details of a refused submission: a 422 VALIDATION_FAILED unless `refusal` says otherwise. */
export function details(res: ApiResponse, refusal: Refusal = INVALID): Detail[] {
  expect(res.status, res.text).toBe(refusal.status);
  const error = (res.body as { error: { code: string; details: Detail[] } }).error;
  expect(error.code).toBe(refusal.code);
  return error.details;
}

/** The account API with an admin and an open fixture (vocabulary registered) to submit to. */
export async function openSubmissionApi(options: Parameters<typeof openAccountApi>[0] = {}) {
  const api: AccountApi = await openAccountApi(options);
  await api.world.given(dismissalKinds(...KINDS));
  const admin: Person = await api.anAdmin();

  /** A fixture given to the world with its innings open and no deliveries. */
  async function aFixtureToSubmitTo(options?: Parameters<typeof anOpenFixture>[0]) {
    const fixture = anOpenFixture(options);
    await api.world.given(fixture);
    return fixture;
  }

  const publicReads = contractClient(testApp(undefined, { sql: api.db.sql, reads: api.db.reads }).app);
  const submit = (body: unknown, token = admin.token) => api.api.post("/api/v1/submissions", body, { token });

  /** POST /submissions/uploads with one file in the multipart field `file`. */
  const upload = (content: string | Uint8Array, filename: string, type: string, token = admin.token) => {
    const form = new FormData();
    form.append("file", new File([content], filename, { type }));
    return api.api.post("/api/v1/submissions/uploads", form, { token });
  };

  /** The public events of a fixture, every page, in occurrence order. */
  const publicEvents = (fixtureId: string) =>
    everyPage<PublicEvent>(publicReads, `/api/v1/fixtures/${fixtureId}/events`, 100);

  return { ...api, admin, aFixtureToSubmitTo, submit, upload, publicEvents };
}
export type SubmissionApi = Awaited<ReturnType<typeof openSubmissionApi>>;
