import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DatabaseWatch, isDatabaseUnavailable } from "../../src/db/availability.js";
import { connectionOptions } from "../../src/db/database.js";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { createApp } from "../../src/http/app.js";
import { createLogger } from "../../src/http/logging.js";
import { apiRoutes } from "../../src/http/routes.js";
import { CricketWorld } from "../support/cricket-world.js";
import { openTestDatabase, type TestDatabase } from "../support/databases.js";
import { TcpProxy } from "../support/tcp-proxy.js";

/*
 * The database going away under a running app, staged by a TCP proxy between the app and the
 * test's database: stopped (connections dropped, new ones refused) and hung (connections
 * open, nothing answered). Requests answer 503 DATABASE_UNAVAILABLE with Retry-After within
 * the bound instead of a 500 or no answer, readiness says why, liveness stays up, and
 * answers resume within a second of the database coming back.
 */

const WATCH = { everyMs: 200, answerWithinMs: 500 };
/** The watch's bound and room for a busy host. */
const REFUSED_WITHIN_MS = WATCH.answerWithinMs + 1500;
const RECOVERED_WITHIN_MS = 1000;

describe("a database that goes away", () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let sql: postgres.Sql;
  let watch: DatabaseWatch;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    db = await openTestDatabase();
    // The read models' tables, empty: what a read needs to answer 200.
    await new CricketWorld(db.sql).catchUp();
    proxy = await TcpProxy.to("127.0.0.1", Number(new URL(db.url).port));
    sql = postgres(proxy.url(db.url), { ...connectionOptions, max: 4 });
    watch = new DatabaseWatch(sql, WATCH);
    watch.start();
    app = createApp(
      { logger: createLogger("silent"), sql, database: watch, store: new PostgresEventStore(sql) },
      apiRoutes,
    );
  }, 60_000);
  afterAll(async () => {
    watch?.stop();
    await proxy?.close();
    await sql?.end({ timeout: 5 });
    await db?.close();
  });

  const timed = async (path: string) => {
    const started = performance.now();
    const res = await app.request(path);
    // biome-ignore lint/suspicious/noExplicitAny: the answers are asserted field by field below
    return { res, ms: performance.now() - started, body: (await res.json()) as Record<string, any> };
  };

  const refusedFast = async (path: string) => {
    const { res, ms, body } = await timed(path);
    expect(res.status, JSON.stringify(body)).toBe(503);
    expect(body.error.code).toBe("DATABASE_UNAVAILABLE");
    expect(res.headers.get("retry-after")).toBe("2");
    expect(ms).toBeLessThan(REFUSED_WITHIN_MS);
  };

  const notReady = async () => {
    const { res, body } = await timed("/api/v1/ready");
    expect(res.status).toBe(503);
    expect(body.error).toMatchObject({ code: "NOT_READY", details: [expect.objectContaining({ field: "database" })] });
    expect((await app.request("/api/v1/health")).status).toBe(200);
  };

  /** Polls until a read answers 200 again, returning how long it took. */
  const recovery = async () => {
    const started = performance.now();
    for (;;) {
      if ((await app.request("/api/v1/fixtures")).status === 200) return performance.now() - started;
      if (performance.now() - started > 10_000) throw new Error("no recovery within 10 s");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it("answers and reports ready while the database answers", async () => {
    expect((await app.request("/api/v1/fixtures")).status).toBe(200);
    const { res, body } = await timed("/api/v1/ready");
    expect(res.status).toBe(200);
    expect(body.data.checks.database).toMatchObject({ status: "up" });
    expect(body.data.checks.redis).toEqual({ status: "not used" });
  });

  it("stopped: 503 with Retry-After at once, not a 500; back within a second", async () => {
    proxy.refuse();
    await refusedFast("/api/v1/fixtures");
    await refusedFast("/api/v1/competitions");
    await notReady();
    proxy.restore();
    expect(await recovery()).toBeLessThan(RECOVERED_WITHIN_MS);
  });

  it("stopped: a page answers a 503 page at once, the front door's index a 503 envelope; both back after", async () => {
    proxy.refuse();
    for (const path of ["/", "/search?q=kohli", "/competitions/ipl", "/releases"]) {
      const started = performance.now();
      const res = await app.request(path, { headers: { accept: "text/html" } });
      expect(performance.now() - started).toBeLessThan(REFUSED_WITHIN_MS);
      expect(res.status, path).toBe(503);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("retry-after")).toBe("2");
      const html = await res.text();
      expect(html).toMatch(/<h1>Back in a moment<\/h1>/);
      expect(html).toContain("The database cannot be reached just now; retry shortly");
    }
    // The index reads nothing: it is refused once the watch has noticed.
    await vi.waitFor(() => expect(watch.available).toBe(false), { timeout: REFUSED_WITHIN_MS });
    const index = await app.request("/");
    expect(index.status).toBe(503);
    expect(((await index.json()) as { error: { code: string } }).error.code).toBe("DATABASE_UNAVAILABLE");
    proxy.restore();
    expect(await recovery()).toBeLessThan(RECOVERED_WITHIN_MS);
    expect((await app.request("/search?q=kohli", { headers: { accept: "text/html" } })).status).toBe(200);
  });

  it("hung: a request waiting on it and those after it answer 503 within the bound; back within a second", async () => {
    proxy.freeze();
    // One already waiting when it hangs, one sent after the watch noticed.
    const waiting = refusedFast("/api/v1/fixtures");
    await new Promise((resolve) => setTimeout(resolve, WATCH.answerWithinMs + 200));
    await Promise.all([waiting, refusedFast("/api/v1/participants")]);
    await notReady();
    proxy.restore();
    expect(await recovery()).toBeLessThan(RECOVERED_WITHIN_MS);
  });

  it("stopped inside a transaction: the transaction rejects, the process lives on, the pool answers after", async () => {
    const transaction = sql.begin(async (tx) => {
      await tx`select 1`;
      await tx`select pg_sleep(2)`;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.refuse();
    await expect(transaction).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    // The driver's own rollback after the drop used to throw TypeError from a setImmediate,
    // out of every caller's reach, ending the process (patches/postgres+3.4.9.patch).
    await new Promise((resolve) => setTimeout(resolve, 50));
    proxy.restore();
    // PGlite's one backend finishes the dropped transaction's sleep (it runs in a thread of
    // its own, not blocking this one) before it takes the next statement.
    const sleepLeft = db.backend === "pglite" ? 2000 - 350 : 0;
    expect(await recovery()).toBeLessThan(RECOVERED_WITHIN_MS + sleepLeft);
    expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
  });
});

describe("isDatabaseUnavailable", () => {
  it("tells a database that cannot take work from a statement that is wrong", () => {
    for (const code of ["ECONNREFUSED", "CONNECTION_CLOSED", "CONNECT_TIMEOUT", "57P01", "08006", "53300", "57014"])
      expect(isDatabaseUnavailable({ code }), code).toBe(true);
    for (const code of ["23505", "42P01", "22P02", undefined])
      expect(isDatabaseUnavailable({ code }), code).toBe(false);
    expect(isDatabaseUnavailable(new Error("plain"))).toBe(false);
  });
});
