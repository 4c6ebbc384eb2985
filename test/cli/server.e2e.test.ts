import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedServer, startServer } from "../support/started-server.js";

/**
 * `npm start` as a newcomer runs it, on the embedded default, on a machine whose weather
 * provider cannot be reached: the server starts, loads its sample and serves everything;
 * weather alone answers 503, at once.
 */
let server: StartedServer;
let base: string;

beforeAll(async () => {
  server = await startServer();
  base = server.base;
}, 120_000);
afterAll(() => server?.stop());

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
