import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { redisCache } from "../../src/cache/redis.js";
import type { EventStore } from "../../src/event-store/port.js";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import { addDays, utcDay } from "../../src/weather/calendar.js";
import { venueStream } from "../../streams/venue.js";
import {
  type AccountApi,
  expectError,
  expectUnauthorized,
  openAccountApi,
  type Person,
} from "../support/account-api.js";
import type { ApiResponse } from "../support/contract.js";
import { cricsheetFile, readMatch } from "../support/cricsheet.js";
import { anEvent } from "../support/events.js";
import { type FakeWeatherProvider, startWeatherProvider, weatherFrom } from "../support/weather-provider.js";

/**
 * Weather through HTTP, on the service's own database and a loopback provider replaying
 * recorded answers: a place and date, and a fixture's start date at its venue, located by
 * geocoding once and then from its stored coordinates; every provider fault answered as the
 * specification says, and none of them touching the fixture's own reads.
 */
let a: AccountApi;
let admin: Person;
let fake: FakeWeatherProvider;

const TODAY = utcDay(new Date());
const fixture = (matchId: string) => cricsheetIds.fixture(matchId);
const WANKHEDE = fixture("335985"); // 2008-04-20, "Wankhede Stadium", Mumbai
const WANKHEDE_AGAIN = fixture("336018"); // 2008-05-14, the same ground
const EDEN_GARDENS = fixture("335986"); // 2008-04-20, Kolkata
const SHARJAH = fixture("729281"); // 2014-04-17, no city
const NO_VENUE = fixture("9900001");
const BEFORE_1940 = fixture("9900002");
const HALF_PAIR = fixture("9900003");
const YESTERDAY = fixture("9900004");
const GREEN_PARK = fixture("9900005");
const HALF_PAIR_VENUE = cricsheetIds.venue("half pair ground");
const ATTRIBUTION =
  /<https:\/\/open-meteo\.com\/>; rel="via".*<https:\/\/creativecommons\.org\/licenses\/by\/4\.0\/>; rel="license"/;

/** A copy of a real match under another id, changed as a test needs. */
function variant(dir: string, matchId: string, from: string, change: (info: Record<string, unknown>) => void) {
  const match = readMatch(from) as unknown as { info: Record<string, unknown> };
  change(match.info);
  const file = path.join(dir, `${matchId}.json`);
  writeFileSync(file, JSON.stringify(match));
  return file;
}

beforeAll(async () => {
  a = await openAccountApi();
  fake = a.weatherProvider;
  admin = await a.anAdmin();
  // A venue whose source gave a latitude and no longitude, registered before its match arrives.
  await a.world.store.append(
    venueStream(HALF_PAIR_VENUE),
    [
      anEvent({
        type: "VenueRegistered",
        data: {
          venueId: HALF_PAIR_VENUE,
          name: "Half Pair Ground",
          city: null,
          latitude: 10,
          longitude: null,
          sourceIds: [],
        },
      }),
    ],
    "no_stream",
  );
  const dir = mkdtempSync(path.join(tmpdir(), "weather-matches-"));
  const files = [
    ...["335985", "336018", "335986", "729281"].map((id) => cricsheetFile(`ipl/${id}.json`)),
    variant(dir, "9900001", "ipl/335987.json", (info) => {
      delete info.venue;
      delete info.city;
    }),
    variant(dir, "9900002", "ipl/335988.json", (info) => {
      info.dates = ["1939-12-31"];
    }),
    variant(dir, "9900003", "ipl/335989.json", (info) => {
      info.venue = "Half Pair Ground";
      delete info.city;
    }),
    variant(dir, "9900004", "ipl/335990.json", (info) => {
      info.dates = [addDays(TODAY, -1)];
      info.venue = "Brabourne Stadium";
      info.city = "Mumbai";
    }),
    variant(dir, "9900005", "ipl/335991.json", (info) => {
      info.venue = "Green Park";
      info.city = "Kanpur";
    }),
  ];
  const imported = await importCricsheet(a.world.store, files);
  expect(imported.failed).toEqual([]);
  await a.world.catchUp();
}, 120_000);
afterAll(() => a?.close());
beforeEach(() => fake.reset());

function dataOf<T>(res: ApiResponse, status = 200): T {
  expect(res.status, res.text).toBe(status);
  return (res.body as { data: T }).data;
}

type FixtureWeather = {
  fixtureId: string;
  date: string;
  availability: string;
  reason?: string;
  venue: { name: string; city: string | null } | null;
  weather: { latitude: number; longitude: number; temperatureMax: number | null } | null;
};
const fixtureWeather = async (fixtureId: string) => {
  const res = await a.api.get(`/api/v1/fixtures/${fixtureId}/weather`);
  if (res.status === 200) expect(res.headers.get("link")).toMatch(ATTRIBUTION);
  return dataOf<FixtureWeather>(res);
};
const venueOf = async (fixtureId: string) =>
  dataOf<{ venue: { venueId: string; name: string; latitude: number | null; longitude: number | null } }>(
    await a.api.get(`/api/v1/fixtures/${fixtureId}`),
  ).venue;
const venueEvents = async (venueId: string) =>
  (await a.world.store.readStream(venueStream(venueId))).map((e) => ({ type: e.type, data: e.data }));
const weatherAt = (query: string) => a.api.get(`/api/v1/weather?${query}`);

describe("GET /api/v1/weather", () => {
  it("answers the day's weather at the point, from the archive for an old date, with the attribution", async () => {
    const res = await weatherAt("latitude=18.9389&longitude=72.8258&date=2024-04-07");
    expect(dataOf(res)).toEqual({
      date: "2024-04-07",
      latitude: 18.9389,
      longitude: 72.8258,
      temperatureMax: 32.1,
      temperatureMin: 26.3,
      precipitationSum: 0,
      windSpeedMax: 14.9,
    });
    expect(res.headers.get("link")).toMatch(ATTRIBUTION);
    expect(res.headers.get("api-version")).toBe("v1");
    expect(fake.requestsTo("archive")).toHaveLength(1);
  });

  it("asks the forecast for today, and answers nulls for values the provider lacks", async () => {
    expect(
      dataOf<{ date: string; temperatureMax: number }>(
        await weatherAt(`latitude=-33.8915&longitude=151.2249&date=${TODAY}`),
      ),
    ).toMatchObject({
      date: TODAY,
      temperatureMax: 33.4,
    });
    expect(fake.requestsTo("forecast")).toHaveLength(1);
    fake.gapOn("1999-01-02");
    expect(dataOf(await weatherAt("latitude=-33.8915&longitude=151.2249&date=1999-01-02"))).toMatchObject({
      temperatureMax: null,
      temperatureMin: null,
      precipitationSum: null,
      windSpeedMax: null,
    });
  });

  it.each([
    ["longitude=72.8&date=2024-04-07", "latitude"],
    ["latitude=18.9&date=2024-04-07", "longitude"],
    ["latitude=18.9&longitude=72.8", "date"],
    ["latitude=abc&longitude=72.8&date=2024-04-07", "latitude"],
    ["latitude=0x10&longitude=72.8&date=2024-04-07", "latitude"],
    ["latitude=1e999&longitude=72.8&date=2024-04-07", "latitude"],
    ["latitude=.5&longitude=72.8&date=2024-04-07", "latitude"],
    ["latitude=Infinity&longitude=72.8&date=2024-04-07", "latitude"],
    ["latitude=&longitude=72.8&date=2024-04-07", "latitude"],
    ["latitude=90.0001&longitude=72.8&date=2024-04-07", "latitude"],
    ["latitude=18.9&longitude=-180.5&date=2024-04-07", "longitude"],
    ["latitude=18.9&longitude=72.8&date=2024-02-30", "date"],
    ["latitude=18.9&longitude=72.8&date=20240407", "date"],
    ["latitude=18.9&longitude=72.8&date=2024-04-07&units=imperial", "units"],
  ])("refuses %s with 400 VALIDATION_FAILED naming %s, asking nothing", async (query, field) => {
    const res = await weatherAt(query);
    expectError(res, 400, "VALIDATION_FAILED");
    const details = (res.body as { error: { details: { field: string }[] } }).error.details;
    expect(details.map((d) => d.field)).toContain(field);
    expect(fake.requests).toHaveLength(0);
  });

  it("takes the edges of the ranges (90, -180, a 16-day forecast) and numbers as JSON writes them", async () => {
    const res = await weatherAt(`latitude=90&longitude=-180&date=${addDays(TODAY, 16)}`);
    expect(dataOf(res)).toMatchObject({ latitude: 90, longitude: -180 });
    expect(dataOf(await weatherAt("latitude=-1.5e1&longitude=7E-7&date=2024-04-07"))).toMatchObject({
      latitude: -15,
      longitude: 7e-7,
    });
  });

  it.each([["1939-12-31"], [addDays(TODAY, 17)]])(
    "answers %s, outside both ranges, with 422 DATE_UNSUPPORTED, asking nothing",
    async (date) => {
      expectError(await weatherAt(`latitude=1&longitude=2&date=${date}`), 422, "DATE_UNSUPPORTED");
      expect(fake.requests).toHaveLength(0);
    },
  );

  describe("provider faults", () => {
    const query = "latitude=51.4839&longitude=-0.1146&date=2010-06-01";
    it.each([
      [["status_500", "status_500"], 502, "UPSTREAM_ERROR", 2],
      [["status_429"], 502, "UPSTREAM_ERROR", 1],
      [["garbage"], 502, "UPSTREAM_ERROR", 1],
      [["wrong_shape"], 502, "UPSTREAM_ERROR", 1],
      [["hang", "hang"], 504, "UPSTREAM_TIMEOUT", 2],
      [["reset", "reset"], 503, "WEATHER_SERVICE_UNAVAILABLE", 2],
    ] as const)("%j: %i %s after %i attempts", async (faults, status, code, attempts) => {
      fake.failNext("archive", ...faults);
      const res = await weatherAt(query);
      expectError(res, status, code);
      expect(fake.requestsTo("archive")).toHaveLength(attempts);
      expect(res.text).not.toContain("Minutely");
    });

    it("keeps no failure: the next ask succeeds", async () => {
      fake.failNext("archive", "status_500", "status_500");
      expectError(await weatherAt(query), 502, "UPSTREAM_ERROR");
      expect(dataOf(await weatherAt(query))).toMatchObject({ temperatureMax: 32.1 });
    });
  });
});

describe("GET /api/v1/fixtures/{fixtureId}/weather", () => {
  it("locates a venue without coordinates in its city, keeps the place on the venue, and reuses it", async () => {
    expect((await venueOf(WANKHEDE))?.latitude).toBeNull();
    expect(await fixtureWeather(WANKHEDE)).toEqual({
      fixtureId: WANKHEDE,
      date: "2008-04-20",
      availability: "available",
      venue: { name: "Wankhede Stadium", city: "Mumbai" },
      weather: {
        date: "2008-04-20",
        latitude: 19.07283,
        longitude: 72.88261,
        temperatureMax: 32.1,
        temperatureMin: 26.3,
        precipitationSum: 0,
        windSpeedMax: 14.9,
      },
    });
    // "Wankhede Stadium" matches nothing; the ground lies in its city.
    expect(fake.requestsTo("geocoding").map((r) => r.params.get("name"))).toEqual(["Wankhede Stadium", "Mumbai"]);
    const venue = await venueOf(WANKHEDE);
    expect(venue).toMatchObject({ latitude: 19.07283, longitude: 72.88261 });
    expect((await venueEvents(venue?.venueId as string)).filter((e) => e.type === "VenueLocated")).toEqual([
      {
        type: "VenueLocated",
        data: {
          venueId: venue?.venueId,
          latitude: 19.07283,
          longitude: 72.88261,
          source: {
            provider: "open-meteo-geocoding",
            query: "Mumbai",
            placeId: 1275339,
            placeName: "Mumbai",
            country: "India",
          },
        },
      },
    ]);

    fake.reset();
    expect((await fixtureWeather(WANKHEDE_AGAIN)).weather).toMatchObject({ latitude: 19.07283, date: "2008-05-14" });
    expect(fake.requestsTo("geocoding")).toHaveLength(0);
    expect((await venueEvents(venue?.venueId as string)).filter((e) => e.type === "VenueLocated")).toHaveLength(1);
  });

  it("takes the match of the venue's own name that lies in its city, not the first", async () => {
    const answer = await fixtureWeather(EDEN_GARDENS);
    expect(answer.weather).toMatchObject({ latitude: 22.56457, longitude: 88.34329 });
    expect(fake.requestsTo("geocoding").map((r) => r.params.get("name"))).toEqual(["Eden Gardens"]);
  });

  it("answers LOCATION_NOT_FOUND for a venue nothing matches, stores nothing, and asks no more for a day", async () => {
    expect(await fixtureWeather(SHARJAH)).toEqual({
      fixtureId: SHARJAH,
      date: "2014-04-17",
      availability: "unavailable",
      reason: "LOCATION_NOT_FOUND",
      venue: { name: "Sharjah Cricket Stadium", city: null },
      weather: null,
    });
    expect(fake.requestsTo("geocoding").map((r) => r.params.get("name"))).toEqual(["Sharjah Cricket Stadium"]);
    const venueId = (await venueOf(SHARJAH))?.venueId as string;
    expect((await venueEvents(venueId)).map((e) => e.type)).not.toContain("VenueLocated");
    await fixtureWeather(SHARJAH);
    expect(fake.requestsTo("geocoding")).toHaveLength(1);
  });

  it("answers a fixture without a venue, one before 1940 and one with half a pair of coordinates, asking nothing", async () => {
    expect(await fixtureWeather(NO_VENUE)).toMatchObject({
      availability: "unavailable",
      reason: "LOCATION_NOT_FOUND",
      venue: null,
      weather: null,
    });
    expect(await fixtureWeather(BEFORE_1940)).toMatchObject({
      date: "1939-12-31",
      reason: "UNSUPPORTED_DATE",
      weather: null,
    });
    expect(await fixtureWeather(HALF_PAIR)).toMatchObject({
      reason: "MISSING_COORDINATES",
      venue: { name: "Half Pair Ground", city: null },
      weather: null,
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("asks the forecast for a fixture of yesterday", async () => {
    expect((await fixtureWeather(YESTERDAY)).weather).toMatchObject({ date: addDays(TODAY, -1), temperatureMax: 33.4 });
    expect(fake.requestsTo("forecast").map((r) => r.params.get("start_date"))).toEqual([addDays(TODAY, -1)]);
  });

  it("is 404 for an unknown fixture", async () => {
    expectError(await a.api.get("/api/v1/fixtures/no-such-fixture/weather"), 404, "NOT_FOUND");
  });

  it("answers provider failures 502, 503 or 504, stores nothing, and leaves the fixture's reads alone", async () => {
    fake.failAlways("geocoding", "status_500");
    // A fixture whose venue is not located yet: Eden Gardens was, so use a copy with its venue renamed.
    const venueId = (await venueOf(EDEN_GARDENS))?.venueId as string;
    const renamed = await a.api.patch(`/api/v1/admin/venues/${venueId}`, { name: "Eden Gardens Stadium" }, admin);
    expect(renamed.status, renamed.text).toBe(200);
    expectError(await a.api.get(`/api/v1/fixtures/${EDEN_GARDENS}/weather`), 502, "UPSTREAM_ERROR");
    expect(fake.requestsTo("geocoding")).toHaveLength(2);
    fake.failAlways("geocoding", "hang");
    expectError(await a.api.get(`/api/v1/fixtures/${EDEN_GARDENS}/weather`), 504, "UPSTREAM_TIMEOUT");
    fake.failAlways("geocoding", "reset");
    expectError(await a.api.get(`/api/v1/fixtures/${EDEN_GARDENS}/weather`), 503, "WEATHER_SERVICE_UNAVAILABLE");
    expect((await venueEvents(venueId)).at(-1)?.type).toBe("VenueRenamed");
    expect((await a.api.get(`/api/v1/fixtures/${EDEN_GARDENS}`)).status).toBe(200);
    expect((await a.api.get(`/api/v1/fixtures/${EDEN_GARDENS}/events`)).status).toBe(200);
  });
});

describe("keeping a location that cannot be kept", () => {
  it("answers the weather all the same, and locates the venue again next time", async () => {
    fake.placesFor("Kanpur", [
      { id: 1267995, name: "Kanpur", latitude: 26.46523, longitude: 80.34975, country: "India" },
    ]);
    const refusing: EventStore = Object.assign(Object.create(a.world.store), {
      append: async () => {
        throw new Error("the store is refusing writes");
      },
    });
    const instance = a.anotherInstance({ store: refusing });
    const res = await instance.get(`/api/v1/fixtures/${GREEN_PARK}/weather`);
    expect(dataOf<FixtureWeather>(res).weather).toMatchObject({ latitude: 26.46523, longitude: 80.34975 });
    expect((await venueOf(GREEN_PARK))?.latitude).toBeNull();
    expect((await fixtureWeather(GREEN_PARK)).weather).toMatchObject({ latitude: 26.46523 });
    expect((await venueOf(GREEN_PARK))?.latitude).toBe(26.46523);
  });
});

describe("PATCH /api/v1/admin/venues/{venueId}", () => {
  it("renames a venue, clears its coordinates, and the next fixture weather locates it again under the new name", async () => {
    await fixtureWeather(WANKHEDE);
    const venueId = (await venueOf(WANKHEDE))?.venueId as string;
    expect((await venueOf(WANKHEDE))?.latitude).not.toBeNull();
    fake.placesFor("Churchgate", [
      {
        id: 1274693,
        name: "Churchgate",
        latitude: 18.9322,
        longitude: 72.8264,
        country: "India",
        admin1: "Maharashtra",
      },
    ]);

    const res = await a.api.patch(`/api/v1/admin/venues/${venueId}`, { city: "Churchgate" }, admin);
    expect(dataOf(res)).toEqual({
      venueId,
      name: "Wankhede Stadium",
      city: "Churchgate",
      latitude: null,
      longitude: null,
      otherNames: [],
    });
    expect(await venueOf(WANKHEDE)).toMatchObject({ latitude: null, longitude: null });

    fake.reset();
    expect((await fixtureWeather(WANKHEDE)).weather).toMatchObject({ latitude: 18.9322, longitude: 72.8264 });
    // What "Wankhede Stadium" matched is kept a day: only the new city is asked about.
    expect(fake.requestsTo("geocoding").map((r) => r.params.get("name"))).toEqual(["Churchgate"]);
    expect((await venueEvents(venueId)).slice(-2).map((e) => e.type)).toEqual(["VenueRenamed", "VenueLocated"]);

    const renamed = await a.api.patch(`/api/v1/admin/venues/${venueId}`, { name: "Wankhede", city: "Mumbai" }, admin);
    expect(dataOf(renamed)).toMatchObject({
      name: "Wankhede",
      city: "Mumbai",
      latitude: null,
      otherNames: ["Wankhede Stadium"],
    });
    expect((await venueOf(WANKHEDE))?.name).toBe("Wankhede");
    const found = await a.api.get("/api/v1/fixtures?limit=1"); // the read models answer again after the change
    expect(found.status).toBe(200);
  });

  it("places a venue geocoding cannot find by hand, and the fixture weather asks there without a lookup", async () => {
    const venueId = (await venueOf(SHARJAH))?.venueId as string;
    const res = await a.api.patch(`/api/v1/admin/venues/${venueId}`, { latitude: 25.3308, longitude: 55.4206 }, admin);
    expect(dataOf(res)).toMatchObject({ name: "Sharjah Cricket Stadium", latitude: 25.3308, longitude: 55.4206 });
    expect((await venueEvents(venueId)).at(-1)).toEqual({
      type: "VenueLocated",
      data: { venueId, latitude: 25.3308, longitude: 55.4206, source: { provider: "administrator" } },
    });
    fake.reset();
    expect(await fixtureWeather(SHARJAH)).toMatchObject({
      availability: "available",
      weather: { latitude: 25.3308, longitude: 55.4206 },
    });
    expect(fake.requestsTo("geocoding")).toHaveLength(0);
    const again = await a.api.patch(
      `/api/v1/admin/venues/${venueId}`,
      { latitude: 25.3308, longitude: 55.4206 },
      admin,
    );
    expect(again.status).toBe(200);
    expect((await venueEvents(venueId)).filter((e) => e.type === "VenueLocated")).toHaveLength(1);
  });

  it("writes nothing for the name and city the venue has", async () => {
    const venueId = (await venueOf(SHARJAH))?.venueId as string;
    const before = (await venueEvents(venueId)).length;
    const res = await a.api.patch(
      `/api/v1/admin/venues/${venueId}`,
      { name: "Sharjah Cricket Stadium", city: null },
      admin,
    );
    expect(dataOf(res)).toMatchObject({ name: "Sharjah Cricket Stadium", city: null });
    expect(await venueEvents(venueId)).toHaveLength(before);
  });

  it("refuses an unknown venue, a bad body, and anyone but an administrator, changing nothing", async () => {
    const venueId = (await venueOf(SHARJAH))?.venueId as string;
    const before = (await venueEvents(venueId)).length;
    expectError(await a.api.patch("/api/v1/admin/venues/no-such-venue", { name: "X" }, admin), 404, "NOT_FOUND");
    for (const body of [
      {},
      { name: "" },
      { name: "x".repeat(201) },
      { city: 7 },
      { name: "X", capacity: 33_000 },
      [],
      { latitude: 25.3 },
      { longitude: 55.4 },
      { latitude: 91, longitude: 0 },
      { latitude: 0, longitude: "55.4" },
    ])
      expectError(await a.api.patch(`/api/v1/admin/venues/${venueId}`, body, admin), 422, "VALIDATION_FAILED");
    expectUnauthorized(await a.api.patch(`/api/v1/admin/venues/${venueId}`, { name: "X" }));
    const viewer = await a.signIn();
    expectError(await a.api.patch(`/api/v1/admin/venues/${venueId}`, { name: "X" }, viewer), 403, "FORBIDDEN");
    expect(await venueEvents(venueId)).toHaveLength(before);
  });
});

describe("an unreachable provider (the embedded default without internet)", () => {
  it("answers weather 503 at once, and every other read as ever", async () => {
    const gone = await startWeatherProvider();
    await gone.close();
    const offline = a.anotherInstance({ weather: weatherFrom(gone, { timeoutMs: 5_000 }) });
    const started = performance.now();
    expectError(
      await offline.get("/api/v1/weather?latitude=1&longitude=2&date=2010-01-01"),
      503,
      "WEATHER_SERVICE_UNAVAILABLE",
    );
    expectError(await offline.get(`/api/v1/fixtures/${SHARJAH}/weather`), 503, "WEATHER_SERVICE_UNAVAILABLE");
    expect(performance.now() - started).toBeLessThan(2_000);
    expect((await offline.get(`/api/v1/fixtures/${SHARJAH}`)).status).toBe(200);
  });
});

describe.skipIf(!process.env.REDIS_URL)("with Redis", () => {
  it("instances sharing the cache ask the provider once", async () => {
    const url = process.env.REDIS_URL as string;
    const caches = [redisCache(url), redisCache(url)];
    try {
      const [one, two] = caches.map((cache) => a.anotherInstance({ weather: weatherFrom(fake, { cache }) }));
      // A point no earlier run asked about, as the archive keeps a final day for a month.
      const query = `latitude=${(Math.random() * 80).toFixed(4)}&longitude=${(Math.random() * 170).toFixed(4)}&date=2001-07-14`;
      expect(dataOf(await (one as typeof a.api).get(`/api/v1/weather?${query}`))).toMatchObject({
        temperatureMax: 32.1,
      });
      expect(dataOf(await (two as typeof a.api).get(`/api/v1/weather?${query}`))).toMatchObject({
        temperatureMax: 32.1,
      });
      expect(fake.requestsTo("archive")).toHaveLength(1);
    } finally {
      await Promise.all(caches.map((c) => c.close()));
    }
  });
});
