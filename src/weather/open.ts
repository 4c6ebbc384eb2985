import { MemoryCache } from "../cache/memory.js";
import type { VersionedCache } from "../cache/versioned-cache.js";
import type { Settings } from "../config.js";
import type { Logger } from "../http/logging.js";
import { WeatherProvider } from "./provider.js";
import { Weather } from "./weather.js";

/**
 * The weather service of a server: the provider at the configured hosts, its answers kept
 * in the shared Redis cache when there is one (every instance then asks the provider once),
 * else in a cache of their own, so that days and places never push fixture statistics out
 * of the in-process one.
 */
export function openWeather(settings: Pick<Settings, "weather">, cache: VersionedCache, logger: Logger): Weather {
  return new Weather({
    provider: new WeatherProvider({ ...settings.weather, logger }),
    cache: cache.kind === "redis" ? cache : new MemoryCache({ maxEntries: 20_000, maxChars: 8 * 1024 * 1024 }),
    logger,
  });
}
