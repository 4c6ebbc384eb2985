import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryCache } from "../../src/cache/memory.js";
import { TTL_SECONDS } from "../../src/weather/weather.js";
import { type FakeWeatherProvider, startWeatherProvider, weatherFrom } from "../support/weather-provider.js";

/** Which answers are kept, and how long: final archive days long, forecasts and gaps briefly. */
let fake: FakeWeatherProvider;
let clock: number;
let weather: ReturnType<typeof weatherFrom>;
const TODAY = "2026-11-27";

beforeAll(async () => {
  fake = await startWeatherProvider();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  clock = Date.parse(`${TODAY}T12:00:00Z`);
  const now = () => clock;
  weather = weatherFrom(fake, { now: () => new Date(clock), cache: new MemoryCache({ now }) });
});
const later = (seconds: number) => {
  clock += seconds * 1000;
};

describe("the weather of a day", () => {
  it("echoes the point asked about, and is null outside both ranges without asking", async () => {
    expect(await weather.day(18.93891234, 72.8258, "2024-04-07")).toEqual({
      date: "2024-04-07",
      latitude: 18.93891234,
      longitude: 72.8258,
      temperatureMax: 32.1,
      temperatureMin: 26.3,
      precipitationSum: 0,
      windSpeedMax: 14.9,
    });
    expect(fake.requestsTo("archive")[0]?.params.get("latitude")).toBe("18.9389");
    expect(await weather.day(0, 0, "1939-12-31")).toBeNull();
    expect(await weather.day(0, 0, "2026-12-14")).toBeNull();
    expect(fake.requests).toHaveLength(1);
  });

  it("keeps a final archive day for a month: nearby points share it", async () => {
    await weather.day(18.9389, 72.8258, "2024-04-07");
    later(TTL_SECONDS.finalDay - 60);
    await weather.day(18.93891, 72.82581, "2024-04-07");
    expect(fake.requestsTo("archive")).toHaveLength(1);
    later(61);
    await weather.day(18.9389, 72.8258, "2024-04-07");
    expect(fake.requestsTo("archive")).toHaveLength(2);
  });

  it("asks again for an archive day with gaps after an hour", async () => {
    fake.gapOn("2024-04-07");
    expect((await weather.day(1, 2, "2024-04-07"))?.temperatureMax).toBeNull();
    later(TTL_SECONDS.incompleteDay - 1);
    await weather.day(1, 2, "2024-04-07");
    expect(fake.requestsTo("archive")).toHaveLength(1);
    later(2);
    await weather.day(1, 2, "2024-04-07");
    expect(fake.requestsTo("archive")).toHaveLength(2);
  });

  it("keeps a forecast ten minutes, and asks the forecast API for the last 92 days and the next 16", async () => {
    await weather.day(1, 2, TODAY);
    await weather.day(1, 2, TODAY);
    later(TTL_SECONDS.forecast + 1);
    await weather.day(1, 2, TODAY);
    await weather.day(1, 2, "2026-08-27");
    await weather.day(1, 2, "2026-12-13");
    expect(fake.requestsTo("forecast").map((r) => r.params.get("start_date"))).toEqual([
      TODAY,
      TODAY,
      "2026-08-27",
      "2026-12-13",
    ]);
    expect(fake.requestsTo("archive")).toHaveLength(0);
  });

  it("asks the provider once for a burst of asks about one day, and shares its failure too", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => weather.day(5, 6, "2003-03-03")));
    expect(new Set(answers.map((a) => a?.temperatureMax))).toEqual(new Set([32.1]));
    expect(fake.requestsTo("archive")).toHaveLength(1);
    fake.failNext("archive", "status_500", "status_500");
    const failed = await Promise.allSettled(Array.from({ length: 4 }, () => weather.day(5, 6, "2003-03-04")));
    expect(failed.map((f) => f.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
    expect(fake.requestsTo("archive")).toHaveLength(3);
  });

  it("keeps no failure: the next ask asks again", async () => {
    fake.failNext("archive", "status_500", "status_500");
    await expect(weather.day(1, 2, "2024-04-07")).rejects.toThrow("answered 500");
    expect((await weather.day(1, 2, "2024-04-07"))?.temperatureMax).toBe(32.1);
    expect(fake.requestsTo("archive")).toHaveLength(3);
  });
});

describe("places", () => {
  it("keeps what a name matched, nothing included, for a day", async () => {
    expect(await weather.places("Mumbai")).toHaveLength(2);
    expect(await weather.places("Nowhere Oval")).toEqual([]);
    later(TTL_SECONDS.places - 1);
    await weather.places("Mumbai");
    await weather.places("Nowhere Oval");
    expect(fake.requestsTo("geocoding")).toHaveLength(2);
    later(2);
    await weather.places("Nowhere Oval");
    expect(fake.requestsTo("geocoding")).toHaveLength(3);
  });
});
