import ky, { HTTPError, type KyInstance, TimeoutError } from "ky";
import type { Secret } from "../config.js";
import type { Logger } from "../http/logging.js";
import type { WeatherSource } from "./calendar.js";
import { DAILY_VARIABLES, type DailyWeather, dailyWeather, type Place, places } from "./open-meteo.js";

/**
 * The one client of the weather provider (Open-Meteo's forecast, archive and geocoding
 * APIs). Its hosts come from configuration only, never from a request. Each call is one
 * GET with a per-attempt timeout and at most one immediate second attempt, on a network
 * failure, a timeout, 408 or 5xx only (the specification's "Weather retry"); every other
 * outcome but a valid answer is a WeatherProviderFailure (docs/weather.md, "Failures").
 */

export type WeatherProviderOptions = {
  /** Base URLs; the API paths (`v1/forecast`, `v1/archive`, `v1/search`) are appended. */
  forecastUrl: string;
  archiveUrl: string;
  geocodingUrl: string;
  /** A commercial subscription's key, sent as `apikey`; the free hosts need none. */
  apiKey?: Secret;
  /** Per attempt: the specification's 5000 ms unless a test says otherwise. */
  timeoutMs?: number;
  logger: Logger;
};

export const PROVIDER_TIMEOUT_MS = 5_000;

/** The most of an answer read: a day's weather or ten places are a few kB. */
const MAX_ANSWER_BYTES = 256 * 1024;

/**
 * How a call failed: the provider was silent past the timeout (`timeout`), answered with
 * something other than a valid answer (`bad_answer`: a non-2xx, not JSON, another shape), or
 * could not be reached at all (`unreachable`). The message is safe to show.
 */
export class WeatherProviderFailure extends Error {
  override readonly name = "WeatherProviderFailure";
  constructor(
    readonly kind: "timeout" | "bad_answer" | "unreachable",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

class AnswerTooLarge extends Error {}

const retriedStatus = (status: number) => status === 408 || status >= 500;

/** Statuses whose answer has no body (a Response built with one throws). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * GET whose body is read whole, within the attempt's timeout and up to a bound. A redirect
 * is an answer like any other non-2xx, never followed: a loop would multiply the calls, and
 * another host is not the provider configured (nor one to send the key to).
 */
async function fetchWhole(input: Request | URL | string, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, { ...init, redirect: "manual" });
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) throw new AnswerTooLarge(`an answer over ${MAX_ANSWER_BYTES} bytes`);
    chunks.push(chunk);
  }
  const { status, statusText, headers } = response;
  return new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), { status, statusText, headers });
}

export class WeatherProvider {
  private readonly http: KyInstance;
  private readonly urls: Record<WeatherSource | "geocoding", URL>;

  constructor(private readonly options: WeatherProviderOptions) {
    const base = (url: string, path: string) => new URL(path, url.endsWith("/") ? url : `${url}/`);
    this.urls = {
      forecast: base(options.forecastUrl, "v1/forecast"),
      archive: base(options.archiveUrl, "v1/archive"),
      geocoding: base(options.geocodingUrl, "v1/search"),
    };
    this.http = ky.create({
      fetch: fetchWhole,
      timeout: options.timeoutMs ?? PROVIDER_TIMEOUT_MS,
      headers: { accept: "application/json" },
      retry: {
        limit: 1,
        methods: ["get"],
        delay: () => 0,
        shouldRetry: ({ error }) =>
          error instanceof HTTPError ? retriedStatus(error.response.status) : !(error instanceof AnswerTooLarge),
      },
    });
  }

  /** The day's weather at the point, from the given API, in the place's own time zone. */
  async daily(source: WeatherSource, latitude: number, longitude: number, date: string): Promise<DailyWeather> {
    const body = await this.get(this.urls[source], {
      latitude: String(latitude),
      longitude: String(longitude),
      daily: Object.keys(DAILY_VARIABLES).join(","),
      start_date: date,
      end_date: date,
      // Daily values run midnight to midnight where the ground is, not in GMT.
      timezone: "auto",
      temperature_unit: "celsius",
      wind_speed_unit: "kmh",
      precipitation_unit: "mm",
      timeformat: "iso8601",
    });
    const day = dailyWeather(body, date);
    if (!day) throw this.failed("bad_answer", `the ${source} answer is not one day's weather`, source);
    return day;
  }

  /** The places a name matches, best first (none: an empty list). */
  async search(name: string): Promise<Place[]> {
    const body = await this.get(this.urls.geocoding, { name, count: "10", language: "en", format: "json" });
    const found = places(body);
    if (!found) throw this.failed("bad_answer", "the geocoding answer is not a list of places", "geocoding");
    return found;
  }

  private async get(endpoint: URL, params: Record<string, string>): Promise<unknown> {
    const url = new URL(endpoint);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const api = endpoint.pathname.split("/").at(-1) ?? "";
    if (this.options.apiKey) url.searchParams.set("apikey", this.options.apiKey.reveal());
    let text: string;
    try {
      text = await (await this.http.get(url)).text();
    } catch (error) {
      if (error instanceof TimeoutError)
        throw this.failed("timeout", "The weather provider did not answer in time", api, error);
      if (error instanceof HTTPError)
        throw this.failed("bad_answer", `The weather provider answered ${error.response.status}`, api, error);
      if (error instanceof AnswerTooLarge) throw this.failed("bad_answer", error.message, api, error);
      throw this.failed("unreachable", "The weather provider could not be reached", api, error);
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw this.failed("bad_answer", "The weather provider's answer is not JSON", api, error);
    }
  }

  private failed(kind: WeatherProviderFailure["kind"], message: string, api: string, cause?: unknown) {
    // What went wrong, never the error itself: its message holds the URL, and the URL the key.
    const code = (cause as { cause?: { code?: string } } | undefined)?.cause?.code;
    this.options.logger.warn({ api, kind, code }, `weather provider: ${message}`);
    return new WeatherProviderFailure(kind, message, { cause });
  }
}
