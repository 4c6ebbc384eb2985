import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { BatchValidator } from "../src/batches/validator.js";
import { bootstrapAdmin } from "../src/commands/accounts/handlers.js";
import { requestRelease } from "../src/commands/releases/handlers.js";
import type { Sql } from "../src/db/database.js";
import type { EventStore } from "../src/event-store/port.js";
import { createLogger } from "../src/http/logging.js";
import type { ProjectionRunner } from "../src/projections/runner.js";
import { utcDate } from "../src/usage/dates.js";
import { cricsheetPackage } from "../test/support/cricsheet-packages.js";
import { developmentIdentity } from "../test/support/dev-identity.js";

type App = { request(path: string, init?: RequestInit): Response | Promise<Response> };

/** Endpoints a consumer's usage is spread over, as a busy consumer's would be. */
const ENDPOINTS = 40;

/**
 * The signed-in pages with what makes them heavy: an administrator's account, the users, a
 * consumer with a month of usage over many endpoints, the report of a batch of a whole
 * match (every delivery an item), a release job. `identity` signs the session in as the
 * development issuer does; `app` is made with it.
 */
export async function signedInPages(sql: Sql, store: EventStore, runner: ProjectionRunner) {
  const dataDir = await mkdtemp(path.join(tmpdir(), "bench-pages-identity-"));
  const identity = await developmentIdentity(dataDir);
  const token = await identity.devIssuer?.issueToken({ subject: "bench-admin", displayName: "Bench Admin" });
  if (!token) throw new Error("the development issuer signs no token");
  await bootstrapAdmin(store, "bench-admin", { now: new Date() });
  await runner.catchUp();

  /** The session's pages, and what they need, once `app` (made with `identity`) is up. */
  async function kinds(app: App): Promise<{ cookie: string; kinds: Record<string, string[]> }> {
    const bearer = { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Idempotency-Key": "bench" };
    const post = async (target: string, body: unknown) => {
      const res = await app.request(target, { method: "POST", headers: bearer, body: JSON.stringify(body) });
      if (res.status >= 300) throw new Error(`${target}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { data: Record<string, unknown> };
    };
    const consumer = await post("/api/v1/admin/api-consumers", { name: "Bench consumer" });
    const consumerId = consumer.data.consumerId as number;
    await sql`
      insert into api_usage (usage_date, consumer_id, key_id, method, route, status_class, requests)
      select ${utcDate(new Date())}::date - day, ${consumerId}, 1, 'GET', '/api/v1/route-' || endpoint, status, 1 + day * endpoint
      from generate_series(0, 30) day, generate_series(1, ${ENDPOINTS}) endpoint, unnest(array['2xx', '4xx', '5xx']) status`;
    const { body } = cricsheetPackage("ipl/980901.json");
    const batch = await post("/api/v1/batches", body);
    await runner.catchUp();
    await new BatchValidator({ sql, store, logger: createLogger("silent") }).drain();
    await runner.catchUp();
    const [judged] = await sql<{ status: string }[]>`
      select status from batch where batch_reference = ${batch.data.batchReference as string}::uuid`;
    if (judged?.status !== "validated") throw new Error(`the batch is ${judged?.status}, not validated`);
    const { state } = await requestRelease(store, "1.0.0", { actor: "bench", now: new Date() });
    await runner.catchUp();
    return {
      cookie: `cricket_session=${token}`,
      kinds: {
        "signed in: account": ["/account"],
        "signed in: users": ["/account/users"],
        "signed in: consumers": ["/account/api-consumers"],
        "signed in: usage (31 days, 40 endpoints)": [`/account/api-consumers/${consumerId}`],
        "signed in: batch report (a whole match)": [`/account/batches/${batch.data.batchReference}`],
        "signed in: release job": [`/account/releases/jobs/${state.job.jobId}`],
      },
    };
  }
  return { identity, kinds, close: () => rm(dataDir, { recursive: true, force: true }) };
}
