import { Writable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Secret } from "../../src/config.js";
import { createLogger } from "../../src/http/logging.js";
import { WeatherProvider, WeatherProviderFailure } from "../../src/weather/provider.js";
import { type FakeWeatherProvider, type Fault, startWeatherProvider } from "../support/weather-provider.js";

/**
 * The provider client against a loopback Open-Meteo: what it asks, what it accepts, and how
 * each fault ends — counted in attempts, since "exactly one immediate retry" is the rule.
 */
let fake: FakeWeatherProvider;
let provider: WeatherProvider;
const TIMEOUT_MS = 250;
const DAY = "2024-04-07";

beforeAll(async () => {
  fake = await startWeatherProvider({ slowMs: 1_000 });
  provider = new WeatherProvider({ ...fake.urls, timeoutMs: TIMEOUT_MS, logger: createLogger("silent") });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const archiveDay = () => provider.daily("archive", 18.9389, 72.8258, DAY);

async function failure(call: Promise<unknown>): Promise<WeatherProviderFailure> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WeatherProviderFailure);
  return error as WeatherProviderFailure;
}

describe("a valid answer", () => {
  it("asks for the four daily values of one day, in °C, mm and km/h, in the place's time zone", async () => {
    expect(await archiveDay()).toEqual({
      temperatureMax: 32.1,
      temperatureMin: 26.3,
      precipitationSum: 0,
      windSpeedMax: 14.9,
    });
    const [request] = fake.requestsTo("archive");
    expect(Object.fromEntries(request?.params ?? [])).toEqual({
      latitude: "18.9389",
      longitude: "72.8258",
      daily: "temperature_2m_max,temperature_2m_min,precipitation_sum,wind_speed_10m_max",
      start_date: DAY,
      end_date: DAY,
      timezone: "auto",
      temperature_unit: "celsius",
      wind_speed_unit: "kmh",
      precipitation_unit: "mm",
      timeformat: "iso8601",
    });
  });

  it("reads a missing measurement (null in its place) as null", async () => {
    fake.gapOn(DAY);
    expect(await archiveDay()).toEqual({
      temperatureMax: null,
      temperatureMin: null,
      precipitationSum: null,
      windSpeedMax: null,
    });
  });

  it("uses the forecast API for the forecast, and sends a subscription's key", async () => {
    const keyed = new WeatherProvider({ ...fake.urls, apiKey: new Secret("k-123"), logger: createLogger("silent") });
    expect((await keyed.daily("forecast", 19, 72.8, "2026-11-20")).temperatureMax).toBe(33.4);
    expect(fake.requestsTo("forecast").map((r) => r.params.get("apikey"))).toEqual(["k-123"]);
  });

  it("finds places by name, best first, and none as an empty list", async () => {
    const mumbai = await provider.search("Mumbai");
    expect(mumbai.map((p) => [p.id, p.name, p.admin1])).toEqual([
      [1275339, "Mumbai", "Maharashtra"],
      [8378934, "Mumbai", "Assam"],
    ]);
    expect(await provider.search("Sharjah Cricket Stadium")).toEqual([]);
    expect(Object.fromEntries(fake.requestsTo("geocoding")[0]?.params ?? [])).toEqual({
      name: "Mumbai",
      count: "10",
      language: "en",
      format: "json",
    });
  });
});

describe("faults", () => {
  const cases: [string, Fault[], WeatherProviderFailure["kind"] | "ok", number][] = [
    ["a 500, then an answer: the one retry succeeds", ["status_500"], "ok", 2],
    ["a 503 twice: one retry, then 502", ["status_503", "status_503"], "bad_answer", 2],
    ["a 408, then an answer", ["status_408"], "ok", 2],
    ["a 429: no retry", ["status_429"], "bad_answer", 1],
    ["a 400: no retry", ["status_400"], "bad_answer", 1],
    ["a timeout, then an answer", ["slow"], "ok", 2],
    ["silent twice: 504", ["hang", "hang"], "timeout", 2],
    ["headers and no body twice: 504", ["stall_body", "stall_body"], "timeout", 2],
    ["a reset connection, then an answer", ["reset"], "ok", 2],
    ["reset twice: 503", ["reset", "reset"], "unreachable", 2],
    ["HTML: no retry, 502", ["garbage"], "bad_answer", 1],
    ["missing daily arrays: 502", ["wrong_shape"], "bad_answer", 1],
    ["a null inside daily.time: 502", ["null_in_time"], "bad_answer", 1],
    ["two values for one day: 502", ["wrong_length"], "bad_answer", 1],
    ["an answer over 256 kB: 502", ["too_large"], "bad_answer", 1],
    ["three 500s: still one retry only", ["status_500", "status_500", "status_500"], "bad_answer", 2],
    ["a redirect: not followed, no retry, 502", ["redirect_loop"], "bad_answer", 1],
    ["a redirect to another host: not followed", ["redirect_away"], "bad_answer", 1],
    ["a 204: no answer, 502", ["status_204"], "bad_answer", 1],
    ["a 205: no retry, 502", ["status_205"], "bad_answer", 1],
    ["a 304: no retry, 502", ["status_304"], "bad_answer", 1],
  ];
  for (const [name, faults, outcome, attempts] of cases) {
    it(name, async () => {
      fake.failNext("archive", ...faults);
      if (outcome === "ok") expect((await archiveDay()).temperatureMax).toBe(32.1);
      else expect((await failure(archiveDay())).kind).toBe(outcome);
      expect(fake.requestsTo("archive")).toHaveLength(attempts);
    });
  }

  it("a timeout is per attempt: two silent attempts end within about twice the timeout", async () => {
    fake.failNext("archive", "hang", "hang");
    const started = performance.now();
    await failure(archiveDay());
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(2 * TIMEOUT_MS - 20);
    expect(elapsed).toBeLessThan(2 * TIMEOUT_MS + 1_000);
  });

  it("a geocoding answer that is not a list of places is 502", async () => {
    fake.failNext("geocoding", "wrong_shape");
    expect((await failure(provider.search("Mumbai"))).kind).toBe("bad_answer");
  });

  it("a place named with text the database cannot hold is 502, so it is never stored", async () => {
    fake.failNext("geocoding", "unstorable_place");
    expect((await failure(provider.search("Mumbai"))).kind).toBe("bad_answer");
  });

  it("a provider nobody listens on is unreachable, at once", async () => {
    const closed = await startWeatherProvider();
    await closed.close();
    const nowhere = new WeatherProvider({ ...closed.urls, logger: createLogger("silent") });
    const started = performance.now();
    expect((await failure(nowhere.daily("archive", 1, 1, DAY))).kind).toBe("unreachable");
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("a host that does not resolve is unreachable, after one retry", async () => {
    const nowhere = new WeatherProvider({
      forecastUrl: "http://weather.invalid",
      archiveUrl: "http://weather.invalid",
      geocodingUrl: "http://weather.invalid",
      logger: createLogger("silent"),
    });
    expect((await failure(nowhere.daily("archive", 1, 1, DAY))).kind).toBe("unreachable");
  });

  it("the failure's message says what failed and nothing of the provider's body", async () => {
    fake.failNext("archive", "status_429");
    expect((await failure(archiveDay())).message).toBe("The weather provider answered 429");
  });

  it("never writes the key in a log line or a failure, whatever fails", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const keyed = new WeatherProvider({
      ...fake.urls,
      apiKey: new Secret("secret-key-4711"),
      timeoutMs: TIMEOUT_MS,
      logger: createLogger("info", sink),
    });
    const faults: Fault[] = ["status_500", "status_500", "garbage", "hang", "hang", "reset", "reset", "redirect_away"];
    fake.failNext("archive", ...faults);
    const failures = [];
    for (let i = 0; i < 5; i++) failures.push(await failure(keyed.daily("archive", 1, 1, DAY)));
    expect(lines).toHaveLength(5);
    for (const text of [...lines, ...failures.map((f) => `${f.message} ${JSON.stringify(f)}`)])
      expect(text).not.toContain("secret-key-4711");
  });
});
