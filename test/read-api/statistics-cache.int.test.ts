import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCache } from "../../src/cache/memory.js";
import { RedisCache } from "../../src/cache/redis.js";
import { readThrough, type VersionedCache } from "../../src/cache/versioned-cache.js";
import { ApiError } from "../../src/http/errors.js";
import { createLogger } from "../../src/http/logging.js";
import { ReadModelWatch } from "../../src/projections/watch.js";
import { fixtureVersion } from "../../src/read-api/queries/fixtures.js";
import { stableTrace } from "../../src/read-api/queries/statistic-trace.js";
import { testApp } from "../support/app.js";
import { contractClient } from "../support/contract.js";
import { aFixture, type BuiltDelivery } from "../support/cricket-builders.js";
import { openReadApi, type ReadApi } from "../support/read-api.js";

/**
 * The versioned cache of fixture statistics: both adapters (in-process, and the real Redis
 * of REDIS_URL, never a mock), and through HTTP that an accepted change makes the old entry
 * unreachable.
 */
const REDIS_URL = process.env.REDIS_URL;

let r: ReadApi;
beforeAll(async () => {
  r = await openReadApi();
});
afterAll(() => r?.close());

function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().trim().split("\n")) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger("info", sink), lines };
}

describe("MemoryCache", () => {
  it("forgets an entry once its time is up", async () => {
    let now = 0;
    const cache = new MemoryCache({ now: () => now });
    await cache.set("k", "v", 60);
    now = 59_999;
    expect(await cache.get("k")).toBe("v");
    now = 60_000;
    expect(await cache.get("k")).toBeUndefined();
    expect(cache.size.entries).toBe(0);
  });

  it("keeps at most its entries and characters, dropping the least recently used", async () => {
    const cache = new MemoryCache({ maxEntries: 2, maxChars: 10 });
    await cache.set("a", "1111", 60);
    await cache.set("b", "2222", 60);
    expect(await cache.get("a")).toBe("1111"); // a is now the most recently used
    await cache.set("c", "3333", 60);
    expect(cache.keys()).toEqual(["a", "c"]);
    await cache.set("d", "4444444", 60); // 4 + 7 > 10: a goes
    expect(cache.keys()).toEqual(["d"]);
    await cache.set("e", "x".repeat(11), 60); // larger than the whole cache: never kept
    expect(await cache.get("e")).toBeUndefined();
    expect(cache.size).toEqual({ entries: 1, chars: 7 });
  });
});

describe("readThrough", () => {
  const failing: VersionedCache = {
    kind: "redis",
    get: () => Promise.reject(new Error("connection refused")),
    set: () => Promise.reject(new Error("connection refused")),
    close: async () => {},
  };

  it("computes once, then serves the cached value; a value read at another version is served but not kept", async () => {
    const { logger } = memoryLogger();
    const cache = new MemoryCache();
    let computed = 0;
    const compute = async () => ({ value: `v${++computed}`, cacheable: true });
    expect(await readThrough(cache, "k", 60, compute, logger)).toEqual({ value: "v1", outcome: "miss" });
    expect(await readThrough(cache, "k", 60, compute, logger)).toEqual({ value: "v1", outcome: "hit" });
    const stale = async () => ({ value: "newer", cacheable: false });
    expect(await readThrough(cache, "other", 60, stale, logger)).toEqual({ value: "newer", outcome: "miss" });
    expect(await cache.get("other")).toBeUndefined();
  });

  it("never fails a read because the cache fails: it computes and warns", async () => {
    const { logger, lines } = memoryLogger();
    const result = await readThrough(failing, "k", 60, async () => ({ value: "fresh", cacheable: true }), logger);
    expect(result).toEqual({ value: "fresh", outcome: "bypass" });
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, msg: "cache read failed; computing the value" }));
  });
});

describe.skipIf(!REDIS_URL)("RedisCache against the real Redis (needs REDIS_URL)", () => {
  let cache: RedisCache;
  beforeAll(() => {
    cache = new RedisCache(REDIS_URL as string);
  });
  afterAll(() => cache?.close());

  it("stores a value with SET … EX and reads it back until it expires", async () => {
    const key = `cricket:test:${crypto.randomUUID()}`;
    expect(await cache.get(key)).toBeUndefined();
    await cache.set(key, "value", 60);
    expect(await cache.get(key)).toBe("value");
    const ttl = await cache.client.ttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
    await cache.set(key, "short", 1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await cache.get(key)).toBeUndefined();
  });
});

type Stats = {
  data: { innings: { total: { runs: number } }[] };
  fixtureVersion: number;
};

/** The HTTP behaviour of the cache, the same over each adapter. */
function invalidationSpecs(
  adapter: string,
  open: () => VersionedCache,
  keysOf: (cache: VersionedCache, fixtureId: string) => Promise<string[]>,
  { watched }: { watched: boolean },
) {
  const how = watched ? ", versions memoised by a watch on the runner" : "";
  describe(`fixture statistics through the ${adapter} cache${how}`, () => {
    let cache: VersionedCache;
    let watch: ReadModelWatch | undefined;
    let api: ReturnType<typeof contractClient>;
    const fixture = aFixture().withInnings({ deliveries: 30 }).withInnings({ deliveries: 28 }).withOutcome();
    const path = `/api/v1/fixtures/${fixture.id}/statistics`;

    beforeAll(async () => {
      await r.world.given(fixture);
      cache = open();
      if (watched) {
        // Only the runner can tell this watch of a change: it never polls within a test.
        watch = new ReadModelWatch(r.db.sql, { pollMs: 600_000 });
        watch.follow(r.world.runner);
        await watch.start();
      }
      // The versioned cache alone: no whole answers kept in front of it (kept-answers.e2e.test.ts).
      const answers = new MemoryCache({ maxEntries: 0 });
      api = contractClient(testApp(undefined, { sql: r.db.sql, cache, watch, answers }).app);
    });
    afterAll(async () => {
      watch?.close();
      await cache?.close();
    });

    it("computes a statistic once and then serves it from the cache, per statistic", async () => {
      const first = await api.get(path);
      expect(first.headers.get("X-Cache")).toBe("MISS");
      const second = await api.get(path);
      expect(second.headers.get("X-Cache")).toBe("HIT");
      expect(second.text).toBe(first.text);
      expect(second.headers.get("ETag")).toBe(first.headers.get("ETag"));
      expect((await api.get(`${path}/innings-0-total`)).headers.get("X-Cache")).toBe("MISS");
      expect((await api.get(`${path}/innings-0-total`)).headers.get("X-Cache")).toBe("HIT");
      expect(await keysOf(cache, fixture.id)).toHaveLength(2);

      const traced = await api.get(`${path}?includeContributors=true`);
      expect(traced.headers.get("X-Cache")).toBe("BYPASS");
      expect(await keysOf(cache, fixture.id)).toHaveLength(2);
    });

    it("makes the old entry unreachable once a correction is accepted", async () => {
      const before = await api.get(path);
      const [key] = (await keysOf(cache, fixture.id)).filter((k) => k.endsWith(":document"));
      // What the cache holds (`<ETag>\n<body>`) is what is served: put a marked body under the current key.
      const marked = JSON.parse(before.text) as Stats;
      (marked.data.innings[0] as { total: { runs: number } }).total.runs = 9999;
      await cache.set(key as string, `"marked"\n${JSON.stringify(marked)}`, 60);
      const served = await api.get(path);
      expect(served.headers.get("ETag")).toBe('"marked"');
      expect(((await api.get(path)).body as Stats).data.innings[0]?.total.runs).toBe(9999);

      const dot = fixture.deliveries.find(
        (d) => d.inningsOrdinal === 0 && d.state.runs.total === 0 && d.state.wickets.length === 0,
      ) as BuiltDelivery;
      await r.world.append(fixture.correction(dot.eventId, { runs: { offBat: 6, extras: 0, total: 6 } }));

      const after = await api.get(path, { headers: { "If-None-Match": before.headers.get("ETag") as string } });
      expect(after.status).toBe(200);
      expect(after.headers.get("X-Cache")).toBe("MISS");
      const body = after.body as Stats;
      expect(body.fixtureVersion).toBe((before.body as Stats).fixtureVersion + 1);
      expect(body.data.innings[0]?.total.runs).toBe(((before.body as Stats).data.innings[0]?.total.runs as number) + 6);
      expect((await api.get(path)).headers.get("X-Cache")).toBe("HIT");
      expect(await keysOf(cache, fixture.id)).toContain(key); // still there until it expires, but never read again
    });

    it("caches a leaderboard until the statistics change, then computes it afresh", async () => {
      const board = `/api/v1/statistics/leaderboards?scope=season&seasonId=${fixture.season.id}&metric=most_runs&limit=50`;
      const runsOf = (body: unknown) =>
        (body as { data: { participantId: string; value: number }[] }).data.reduce((n, row) => n + row.value, 0);
      const first = await api.get(board);
      expect(first.status).toBe(200);
      const second = await api.get(board);
      expect(second.headers.get("X-Cache")).toBe("HIT");
      expect(second.text).toBe(first.text);

      const dot = fixture.deliveries.find(
        (d) => d.inningsOrdinal === 1 && d.state.runs.total === 0 && d.state.wickets.length === 0,
      ) as BuiltDelivery;
      await r.world.append(fixture.correction(dot.eventId, { runs: { offBat: 4, extras: 0, total: 4 } }));
      const after = await api.get(board);
      expect(after.headers.get("X-Cache")).toBe("MISS");
      expect(runsOf(after.body)).toBe(runsOf(first.body) + 4);
    });
  });
}

const memoryKeys = async (cache: VersionedCache, fixtureId: string) =>
  (cache as MemoryCache).keys().filter((k) => k.includes(fixtureId));
invalidationSpecs("in-process", () => new MemoryCache(), memoryKeys, { watched: false });
invalidationSpecs("in-process", () => new MemoryCache(), memoryKeys, { watched: true });

if (REDIS_URL) {
  invalidationSpecs(
    "Redis",
    () => new RedisCache(REDIS_URL),
    async (cache, fixtureId) => (cache as RedisCache).client.keys(`cricket:fixture-statistics:*:${fixtureId}:*`),
    { watched: true },
  );
} else {
  describe.skip("fixture statistics through the Redis cache (needs REDIS_URL)", () => {
    it("makes the old entry unreachable once a correction is accepted", () => {});
  });
}

describe("fixture statistics when the cache is out of order", () => {
  const fixture = aFixture().withInnings({ deliveries: 12 });
  beforeAll(() => r.world.given(fixture));

  it("keeps answering, computed, and warns", async () => {
    const cache = new RedisCache("redis://127.0.0.1:1", { commandTimeoutMs: 100 }); // nothing listens there
    const { app, logs } = testApp(undefined, { sql: r.db.sql, cache });
    const res = await contractClient(app).get(`/api/v1/fixtures/${fixture.id}/statistics`);
    await cache.close();
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Cache")).toBe("BYPASS");
    expect(logs()).toContainEqual(
      expect.objectContaining({ level: 40, msg: "cache read failed; computing the value" }),
    );
  });

  it("expires an entry after 60 seconds", async () => {
    let now = Date.now();
    const cache = new MemoryCache({ now: () => now });
    const api = contractClient(testApp(undefined, { sql: r.db.sql, cache }).app);
    const path = `/api/v1/fixtures/${fixture.id}/statistics/innings-0`;
    expect((await api.get(path)).headers.get("X-Cache")).toBe("MISS");
    now += 59_000;
    expect((await api.get(path)).headers.get("X-Cache")).toBe("HIT");
    now += 1_000;
    expect((await api.get(path)).headers.get("X-Cache")).toBe("MISS");
  });
});

describe("stableTrace", () => {
  const fixture = aFixture().withInnings({ deliveries: 12 });
  beforeAll(() => r.world.given(fixture));
  const version = () => fixtureVersion(r.db.sql, fixture.id);

  it("returns the trace with the version it was read at while nothing changes", async () => {
    const read = await stableTrace(version, async (v) => `trace at ${v}`);
    expect(read).toEqual({ version: read.version, value: `trace at ${read.version}` });
    expect(read.version).toBe(await version());
  });

  it("answers 409 TRACE_CHANGED when a change is accepted while the trace is read", async () => {
    const target = fixture.deliveries[3] as BuiltDelivery;
    const attempt = stableTrace(version, async () => {
      await r.world.append(fixture.correction(target.eventId, { runs: { offBat: 4, extras: 0, total: 4 } }));
      return "half old, half new";
    });
    await expect(attempt).rejects.toBeInstanceOf(ApiError);
    await expect(attempt).rejects.toMatchObject({ code: "TRACE_CHANGED", status: 409 });
  });

  it("answers 404 for a fixture that does not exist", async () => {
    await expect(
      stableTrace(
        () => fixtureVersion(r.db.sql, "nope"),
        async () => 1,
      ),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
