import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWeatherProvider } from "../support/weather-provider.js";

/**
 * `npm start` as a newcomer runs it, on the embedded default, on a machine whose weather
 * provider cannot be reached (as on these machines, which have no internet): the server
 * starts, loads its sample and serves everything; weather alone answers 503, at once.
 */
let server: ChildProcess;
let dataDir: string;
let base: string;

const freePort = async () => {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "cricket-server-"));
  const gone = await startWeatherProvider();
  await gone.close(); // a port nobody listens on
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ["bin/server.js"], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: "error",
      DATABASE_URL: "",
      REDIS_URL: "",
      EVENTSTORE_URL: "",
      WEATHER_FORECAST_URL: gone.url,
      WEATHER_ARCHIVE_URL: gone.url,
      WEATHER_GEOCODING_URL: gone.url,
    },
    stdio: "ignore",
  });
  for (const deadline = Date.now() + 90_000; ; ) {
    const up = await fetch(`${base}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error("the server did not answer within 90 s");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, 120_000);
afterAll(async () => {
  if (server?.exitCode === null) {
    server.kill("SIGTERM");
    await once(server, "exit");
  }
  await rm(dataDir, { recursive: true, force: true });
});

describe("the embedded default with the weather provider unreachable", () => {
  it("serves the sample's fixtures, and answers weather 503 WEATHER_SERVICE_UNAVAILABLE within a second", async () => {
    const fixtures = (await (await fetch(`${base}/api/v1/fixtures?limit=1`)).json()) as {
      data: { fixtureId: string }[];
    };
    const fixtureId = fixtures.data[0]?.fixtureId;
    expect(fixtureId).toBeDefined();

    for (const target of [
      `/api/v1/weather?latitude=19.07&longitude=72.88&date=2010-06-01`,
      `/api/v1/fixtures/${fixtureId}/weather`,
    ]) {
      const started = performance.now();
      const res = await fetch(`${base}${target}`);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("2");
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("WEATHER_SERVICE_UNAVAILABLE");
    }
    expect((await fetch(`${base}/api/v1/fixtures/${fixtureId}`)).status).toBe(200);
    expect((await fetch(`${base}/api/v1/health`)).status).toBe(200);
  });
});
