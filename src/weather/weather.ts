import { readThrough, type VersionedCache } from "../cache/versioned-cache.js";
import type { Logger } from "../http/logging.js";
import { utcDay, type WeatherSource, weatherSource } from "./calendar.js";
import { type DailyWeather, isComplete, type Place } from "./open-meteo.js";
import type { WeatherProvider } from "./provider.js";

/** The specification's weather result: the day at the point asked about, numbers or null. */
export type WeatherResult = { date: string; latitude: number; longitude: number } & DailyWeather;

/**
 * How long an answer is kept (docs/weather.md, "Caching"). A complete archive day is final;
 * an archive day with gaps may still be filled in; a forecast is revised every hour or so.
 * Places move seldom, and a name that matched nothing is not asked about again for a day.
 */
export const TTL_SECONDS = {
  finalDay: 30 * 86_400,
  incompleteDay: 3_600,
  forecast: 600,
  places: 86_400,
} as const;

/** Provider calls ask for points to 4 decimals (about 11 m, far finer than any weather grid), so nearby asks share an answer. */
const gridPoint = (degrees: number) => Math.round(degrees * 10_000) / 10_000;

const dayKey = (source: WeatherSource, lat: number, lon: number, date: string) =>
  `weather:v1:${source}:${lat}:${lon}:${date}`;

export type WeatherOptions = {
  provider: WeatherProvider;
  /** Shared by every instance when it is Redis (weatherCache). */
  cache: VersionedCache;
  logger: Logger;
  /** The clock that says which day is today (tests move it). */
  now?: () => Date;
};

/** Weather and places as the provider gives them, through the cache. */
export class Weather {
  /** Answers being fetched, by key: a burst of asks for one day makes one provider call. */
  private readonly inFlight = new Map<string, ReturnType<typeof readThrough>>();

  constructor(private readonly options: WeatherOptions) {}

  /** The API that holds `date` today, or null when neither does. */
  sourceOf(date: string): WeatherSource | null {
    return weatherSource(date, utcDay(this.options.now?.() ?? new Date()));
  }

  /** The day's weather at the point; null when the date is outside both APIs. */
  async day(latitude: number, longitude: number, date: string): Promise<WeatherResult | null> {
    const source = this.sourceOf(date);
    if (!source) return null;
    const [lat, lon] = [gridPoint(latitude), gridPoint(longitude)];
    const { value } = await this.cached(dayKey(source, lat, lon, date), 0, async () => {
      const day = await this.options.provider.daily(source, lat, lon, date);
      const ttlSeconds =
        source === "forecast"
          ? TTL_SECONDS.forecast
          : isComplete(day)
            ? TTL_SECONDS.finalDay
            : TTL_SECONDS.incompleteDay;
      return { value: JSON.stringify(day), cacheable: true, ttlSeconds };
    });
    return { date, latitude, longitude, ...(JSON.parse(value) as DailyWeather) };
  }

  /**
   * The day's weather if an earlier ask left it in the cache, without asking the provider:
   * for a page that must not wait on it. undefined when it is not there (or the cache fails).
   */
  async cachedDay(latitude: number, longitude: number, date: string): Promise<WeatherResult | undefined> {
    const source = this.sourceOf(date);
    if (!source) return undefined;
    const value = await this.options.cache
      .get(dayKey(source, gridPoint(latitude), gridPoint(longitude), date))
      .catch(() => undefined);
    return value === undefined ? undefined : { date, latitude, longitude, ...(JSON.parse(value) as DailyWeather) };
  }

  /** The places a name matches, best first. */
  async places(name: string): Promise<Place[]> {
    const key = `weather:v1:places:${encodeURIComponent(name)}`;
    const { value } = await this.cached(key, TTL_SECONDS.places, async () => ({
      value: JSON.stringify(await this.options.provider.search(name)),
      cacheable: true,
    }));
    return JSON.parse(value) as Place[];
  }

  private cached(key: string, ttlSeconds: number, compute: Parameters<typeof readThrough>[3]) {
    const running = this.inFlight.get(key);
    if (running) return running;
    const answer = readThrough(this.options.cache, key, ttlSeconds, compute, this.options.logger).finally(() =>
      this.inFlight.delete(key),
    );
    this.inFlight.set(key, answer);
    return answer;
  }
}
