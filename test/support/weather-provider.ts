import { readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { MemoryCache } from "../../src/cache/memory.js";
import type { VersionedCache } from "../../src/cache/versioned-cache.js";
import { createLogger } from "../../src/http/logging.js";
import { WeatherProvider } from "../../src/weather/provider.js";
import { Weather } from "../../src/weather/weather.js";

/**
 * A loopback stand-in for Open-Meteo's forecast, archive and geocoding APIs. It replays
 * recorded answers (test/support/open-meteo/, in the shapes the provider documents and
 * sends, reference §1) and misbehaves on demand, so the client's own fetch, timeout, retry
 * and parsing are what the tests exercise. Every request is recorded, to count attempts.
 */

export type Api = "forecast" | "archive" | "geocoding";

export type Fault =
  | "slow" // answers correctly, after `slowMs`
  | "hang" // never answers
  | "stall_body" // sends the headers, never the body
  | "reset" // drops the connection
  | "status_400"
  | "status_408"
  | "status_429"
  | "status_500"
  | "status_503"
  | "garbage" // 200 with HTML
  | "wrong_shape" // 200 JSON without the daily arrays (or a places list that is not one)
  | "null_in_time" // a null inside `daily.time`
  | "wrong_length" // two values for one day
  | "too_large" // 200 with a body of 1 MB
  | "redirect_loop" // 302 back to the same URL
  | "redirect_away" // 302 to another host, query (key) included
  | "status_204"
  | "status_205"
  | "status_304"
  | "unstorable_place"; // a place named with U+0000 and a lone surrogate

const recording = (name: string) =>
  JSON.parse(readFileSync(new URL(`./open-meteo/${name}.json`, import.meta.url), "utf8")) as Record<string, unknown>;

const RECORDED = {
  forecast: recording("forecast"),
  archive: recording("archive"),
  archiveGap: recording("archive-gap"),
  noPlaces: recording("search-none"),
  badRequest: recording("error-400"),
  tooMany: recording("error-429"),
};

/** Recorded geocoding answers by the name searched; any other name matches nothing. */
const PLACES: Record<string, Record<string, unknown>> = {
  Mumbai: recording("search-mumbai"),
  "Eden Gardens": recording("search-eden-gardens"),
};

const PATHS: Record<string, Api> = { "/v1/forecast": "forecast", "/v1/archive": "archive", "/v1/search": "geocoding" };

export async function startWeatherProvider(options: { slowMs?: number } = {}) {
  const slowMs = options.slowMs ?? 1_000;
  const requests: { api: Api; params: URLSearchParams }[] = [];
  /** Faults the next requests to an API meet, one each, in order; then it answers normally. */
  const queued: Record<Api, Fault[]> = { forecast: [], archive: [], geocoding: [] };
  /** A fault every request to an API meets, until cleared. */
  const always: Partial<Record<Api, Fault>> = {};
  /** Archive days answered with every value missing (the provider's lag). */
  const gaps = new Set<string>();
  const places: Record<string, Record<string, unknown>> = { ...PLACES };

  const send = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));

  const answer = (api: Api, params: URLSearchParams): Record<string, unknown> => {
    if (api === "geocoding") return places[params.get("name") ?? ""] ?? RECORDED.noPlaces;
    const date = params.get("start_date") ?? "";
    const recorded = api === "archive" && gaps.has(date) ? RECORDED.archiveGap : RECORDED[api];
    const daily = recorded.daily as Record<string, unknown[]>;
    return { ...recorded, daily: { ...daily, time: [date] } };
  };

  const misbehave = (res: ServerResponse, fault: Fault, api: Api, params: URLSearchParams) => {
    const body = answer(api, params);
    const daily = body.daily as Record<string, unknown[]> | undefined;
    switch (fault) {
      case "slow":
        return void setTimeout(() => send(res, 200, body), slowMs);
      case "hang":
        return;
      case "stall_body":
        return void res.writeHead(200, { "content-type": "application/json" }).write("{");
      case "reset":
        return void res.socket?.destroy();
      case "status_400":
        return send(res, 400, RECORDED.badRequest);
      case "status_429":
        return send(res, 429, RECORDED.tooMany);
      case "status_408":
      case "status_500":
      case "status_503":
        return send(res, Number(fault.slice(7)), { error: true, reason: "Internal Server Error" });
      case "garbage":
        return void res
          .writeHead(200, { "content-type": "text/html" })
          .end("<html><body>502 Bad Gateway</body></html>");
      case "wrong_shape":
        return send(res, 200, api === "geocoding" ? { results: "Mumbai" } : { ...body, daily: { time: daily?.time } });
      case "null_in_time":
        return send(res, 200, { ...body, daily: { ...daily, time: [null] } });
      case "wrong_length":
        return send(res, 200, {
          ...body,
          daily: Object.fromEntries(Object.entries(daily ?? {}).map(([k, v]) => [k, k === "time" ? v : [...v, ...v]])),
        });
      case "too_large":
        return send(res, 200, { ...body, padding: "x".repeat(1024 * 1024) });
      case "redirect_loop":
        return void res.writeHead(302, { location: `http://${res.req.headers.host}${res.req.url}` }).end();
      case "redirect_away":
        return void res.writeHead(302, { location: `http://localhost:1${res.req.url}` }).end();
      case "status_204":
      case "status_205":
      case "status_304":
        return void res.writeHead(Number(fault.slice(7))).end();
      case "unstorable_place":
        return send(res, 200, {
          results: [{ id: 1, name: "Mum\u0000bai \ud800", latitude: 19, longitude: 72.9, country: "India" }],
        });
    }
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const api = PATHS[url.pathname];
    if (req.method !== "GET" || !api) return send(res, 404, { error: true, reason: "Not Found" });
    requests.push({ api, params: url.searchParams });
    const fault = queued[api].shift() ?? always[api];
    if (fault) return misbehave(res, fault, api, url.searchParams);
    send(res, 200, answer(api, url.searchParams));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    /** The base URL of all three APIs. */
    url,
    urls: { forecastUrl: url, archiveUrl: url, geocodingUrl: url },
    requests,
    /** Requests to one API, optionally only those with a parameter of a value (`name=Mumbai`). */
    requestsTo(api: Api, where?: [string, string]) {
      return requests.filter((r) => r.api === api && (!where || r.params.get(where[0]) === where[1]));
    },
    /** The next requests to `api` meet these faults, one each, in order. */
    failNext(api: Api, ...faults: Fault[]) {
      queued[api].push(...faults);
    },
    /** Every request to `api` meets `fault` (undefined: none again). */
    failAlways(api: Api, fault: Fault | undefined) {
      if (fault) always[api] = fault;
      else delete always[api];
    },
    /** The archive answers this day with every value missing. */
    gapOn(date: string) {
      gaps.add(date);
    },
    /** Geocoding answers `name` with these places (the recorded shape's fields). */
    placesFor(name: string, results: Record<string, unknown>[]) {
      places[name] = { results, generationtime_ms: 0.5 };
    },
    reset() {
      requests.length = 0;
      gaps.clear();
      for (const api of Object.keys(queued) as Api[]) queued[api] = [];
      for (const api of Object.keys(always) as Api[]) delete always[api];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeWeatherProvider = Awaited<ReturnType<typeof startWeatherProvider>>;

/** The service's weather over the fake provider, with a cache of its own and a short per-attempt timeout. */
export function weatherFrom(
  fake: FakeWeatherProvider,
  {
    timeoutMs = 300,
    now,
    cache = new MemoryCache(),
  }: { timeoutMs?: number; now?: () => Date; cache?: VersionedCache } = {},
) {
  const logger = createLogger("silent");
  return new Weather({ provider: new WeatherProvider({ ...fake.urls, timeoutMs, logger }), cache, logger, now });
}
