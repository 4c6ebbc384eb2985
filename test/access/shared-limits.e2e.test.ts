import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisCache } from "../../src/cache/redis.js";
import { redisWindowCounter } from "../../src/limits/redis.js";
import type { WindowCounter } from "../../src/limits/window-counter.js";
import { dropKeys, uniquePrefix } from "../limits/redis-keys.js";
import { expectError } from "../support/account-api.js";
import { type ConsumerApi, header, openConsumerApi } from "../support/consumer-api.js";
import type { ApiResponse } from "../support/contract.js";

/*
 * Limits across instances and outages, on real Redis servers: two API instances counting in
 * one Redis obey one limit; a Redis that stops makes every limited read 503
 * RATE_LIMIT_UNAVAILABLE (nothing admitted uncounted) until it is back.
 */

const ok = (res: ApiResponse) => expect(res.status, res.text).toBe(200);
const fixtures = "/api/v1/fixtures";

describe.skipIf(!process.env.REDIS_URL)("two instances sharing REDIS_URL", () => {
  const url = process.env.REDIS_URL as string;
  const prefix = uniquePrefix();
  const counters: WindowCounter[] = [];
  let api: ConsumerApi;
  const counter = () => {
    const opened = redisWindowCounter(url, { prefix });
    counters.push(opened);
    return opened;
  };
  beforeAll(async () => {
    api = await openConsumerApi({ rateLimits: counter() });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await Promise.all(counters.map((c) => c.close()));
    await dropKeys(url, prefix);
  });

  it("obey one per-minute limit and one quota between them", async () => {
    const other = api.anotherInstance({ rateLimits: counter() });
    const { apiKey } = await api.aConsumer({ rateLimitPerMinute: 4, dailyQuota: 1000 });
    // Far from the end of a minute, so the four land in one window.
    const second = new Date().getUTCSeconds();
    if (second > 50) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(await api.read(fixtures, { key: apiKey, client: i % 2 ? other : api.api }));
    answers.forEach(ok);
    expect(answers.map((r) => header(r, "RateLimit-Remaining"))).toEqual(["3", "2", "1", "0"]);
    expect(answers.map((r) => header(r, "X-Quota-Remaining"))).toEqual(["999", "998", "997", "996"]);
    expectError(await api.read(fixtures, { key: apiKey }), 429, "RATE_LIMIT_EXCEEDED");
    expectError(await api.read(fixtures, { key: apiKey, client: other }), 429, "RATE_LIMIT_EXCEEDED");
  }, 30_000);
});

/** A Redis server of this test's own on a free port, which it can stop and start again. */
class OwnRedis {
  private process: ChildProcess | undefined;
  constructor(readonly port: number) {}

  static async start() {
    const redis = new OwnRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start() {
    const server = spawn("redis-server", ["--port", String(this.port), "--save", "", "--appendonly", "no"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    this.process = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("Ready to accept connections")) resolve();
      });
    });
  }

  /** Stops the server answering without closing its connections, as a hung host would. */
  freeze() {
    this.process?.kill("SIGSTOP");
  }

  thaw() {
    this.process?.kill("SIGCONT");
  }

  async stop() {
    const server = this.process;
    if (!server || server.exitCode !== null) return;
    await new Promise((resolve) => {
      server.once("exit", resolve);
      server.kill("SIGKILL");
    });
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

describe("a Redis that stops mid-run", () => {
  let redis: OwnRedis;
  let counter: WindowCounter;
  let api: ConsumerApi;
  beforeAll(async () => {
    redis = await OwnRedis.start();
    counter = redisWindowCounter(redis.url);
    api = await openConsumerApi({
      rateLimits: counter,
      anonymousLimits: { perSourcePerMinute: 100, platformPerMinute: 100 },
    });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await counter?.close();
    await redis?.stop();
  });

  it("refuses keyed and anonymous reads with 503 RATE_LIMIT_UNAVAILABLE, then recovers", async () => {
    const { apiKey } = await api.aConsumer({ rateLimitPerMinute: 100, dailyQuota: 1000 });
    ok(await api.read(fixtures, { key: apiKey }));
    ok(await api.read(fixtures));

    await redis.stop();
    for (const res of [await api.read(fixtures, { key: apiKey }), await api.read(fixtures)]) {
      expectError(res, 503, "RATE_LIMIT_UNAVAILABLE");
      expect(res.headers.has("x-quota-remaining")).toBe(false);
    }
    // The application routes do not depend on it.
    expect((await api.api.get("/api/v1/admin/api-consumers", { token: api.admin.token })).status).toBe(200);

    await redis.start();
    let recovered: ApiResponse | undefined;
    for (let attempt = 0; attempt < 50 && recovered?.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      recovered = await api.read(fixtures, { key: apiKey });
    }
    ok(recovered as ApiResponse);
    ok(await api.read(fixtures));
  }, 30_000);
});

/**
 * The documented bound (docs/access.md), with room for the request's own work on a busy host;
 * batches that waited out the ones before them (the fault this guards) take 250 ms more each.
 */
const REFUSED_WITHIN_MS = 250 + 350;

describe("a Redis that freezes mid-run", () => {
  let redis: OwnRedis;
  let counter: WindowCounter;
  let api: ConsumerApi;
  beforeAll(async () => {
    redis = await OwnRedis.start();
    counter = redisWindowCounter(redis.url);
    api = await openConsumerApi({
      rateLimits: counter,
      cache: redisCache(redis.url),
      anonymousLimits: { perSourcePerMinute: 100, platformPerMinute: 100 },
    });
  }, 60_000);
  afterAll(async () => {
    redis?.thaw();
    await api?.close();
    await counter?.close();
    await redis?.stop();
  });

  const timed = async (path: string, key?: string) => {
    const started = performance.now();
    const res = await api.read(path, { key });
    return { res, ms: performance.now() - started };
  };

  it("refuses every read within the documented 250 ms, alone or many at once, then recovers", async () => {
    const { apiKey } = await api.aConsumer({ rateLimitPerMinute: 100, dailyQuota: 1000 });
    const statistics = `/api/v1/fixtures/${api.fixtureId}/statistics`;
    ok(await api.read(fixtures, { key: apiKey }));
    ok(await api.read(statistics));

    redis.freeze();
    for (const [path, key] of [
      [fixtures, apiKey],
      [fixtures, undefined],
      [statistics, apiKey],
      [statistics, undefined],
    ] as const) {
      const { res, ms } = await timed(path, key);
      expectError(res, 503, "RATE_LIMIT_UNAVAILABLE");
      expect(ms, `${path} ${key ? "keyed" : "anonymous"}`).toBeLessThan(REFUSED_WITHIN_MS);
    }
    // Batches sent while earlier ones wait on the hung server keep their own deadline: six
    // waves 50 ms apart, each of which would otherwise wait out the ones before it.
    const waves = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(async (wave) => {
        await new Promise((resolve) => setTimeout(resolve, wave * 50));
        return Promise.all(
          Array.from({ length: 10 }, (_, i) => timed(i % 4 < 2 ? fixtures : statistics, i % 2 ? apiKey : undefined)),
        );
      }),
    );
    for (const { res } of waves.flat()) expectError(res, 503, "RATE_LIMIT_UNAVAILABLE");
    expect(Math.max(...waves.flat().map((t) => t.ms))).toBeLessThan(REFUSED_WITHIN_MS);

    redis.thaw();
    let recovered: ApiResponse | undefined;
    for (let attempt = 0; attempt < 50 && recovered?.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      recovered = await api.read(fixtures, { key: apiKey });
    }
    ok(recovered as ApiResponse);
    ok(await api.read(statistics));
  }, 30_000);
});
