import type { Sql } from "../db/database.js";
import type { Place } from "./open-meteo.js";
import { accepted, type VenueLabels, venueLookups } from "./venue-location.js";
import type { Weather, WeatherResult } from "./weather.js";

/** Why a fixture has no weather (the specification's reason values; docs/weather.md, "Fixture weather"). */
export type UnavailableReason = "LOCATION_NOT_FOUND" | "MISSING_COORDINATES" | "UNSUPPORTED_DATE";

export type FixtureWeather = {
  fixtureId: string;
  date: string;
  venue: { name: string; city: string | null } | null;
} & (
  | { availability: "available"; weather: WeatherResult }
  | { availability: "unavailable"; reason: UnavailableReason; weather: null }
);

type FixtureVenue = VenueLabels & { venueId: string; latitude: number | null; longitude: number | null };

/** The fixture's start date and venue as the read models hold them; undefined for no such fixture. */
export async function fixturePlace(
  sql: Sql,
  fixtureId: string,
): Promise<{ date: string; venue: FixtureVenue | null } | undefined> {
  const [row] = await sql<
    {
      start_date: string;
      venue_id: string | null;
      name: string | null;
      city: string | null;
      other_names: string[] | null;
      latitude: number | null;
      longitude: number | null;
    }[]
  >`
    select f.start_date::text, v.venue_id, v.name, v.city, v.alternative_names as other_names, v.latitude, v.longitude
    from fixture f left join venue v on v.venue_id = f.venue_id
    where f.fixture_id = ${fixtureId}`;
  if (!row) return undefined;
  const { start_date: date, venue_id: venueId, name, city, other_names, latitude, longitude } = row;
  const venue = venueId && name ? { venueId, name, city, otherNames: other_names ?? [], latitude, longitude } : null;
  return { date, venue };
}

/** A place found for a venue, and the lookup text that found it. */
export type Located = { place: Place; query: string };

export type FixtureWeatherDeps = {
  weather: Weather;
  /** Keeps a location found for a venue (the venue's stream); awaited before the weather is asked for. */
  remember: (venue: FixtureVenue, located: Located) => Promise<void>;
};

/**
 * The weather on the fixture's start date at its venue: at the venue's stored coordinates,
 * or where the venue's lookups locate it (kept, so the next ask needs none). Provider
 * failures propagate (WeatherProviderFailure); what the fixture lacks is an answer.
 */
export async function fixtureWeather(
  deps: FixtureWeatherDeps,
  fixtureId: string,
  { date, venue }: { date: string; venue: FixtureVenue | null },
): Promise<FixtureWeather> {
  const base = { fixtureId, date, venue: venue && { name: venue.name, city: venue.city } };
  const unavailable = (reason: UnavailableReason) => ({
    ...base,
    availability: "unavailable" as const,
    reason,
    weather: null,
  });
  if (!deps.weather.sourceOf(date)) return unavailable("UNSUPPORTED_DATE");
  if (!venue) return unavailable("LOCATION_NOT_FOUND");
  let { latitude, longitude } = venue;
  // Half a pair is a stored coordinate without its partner: nothing to ask about, and not to be guessed over.
  if ((latitude === null) !== (longitude === null)) return unavailable("MISSING_COORDINATES");
  if (latitude === null || longitude === null) {
    const located = await locate(deps.weather, venue);
    if (!located) return unavailable("LOCATION_NOT_FOUND");
    await deps.remember(venue, located);
    ({ latitude, longitude } = located.place);
  }
  const weather = await deps.weather.day(latitude, longitude, date);
  return weather ? { ...base, availability: "available", weather } : unavailable("UNSUPPORTED_DATE");
}

/** The first place the venue's lookups accept, in their order; undefined when none does. */
async function locate(weather: Weather, venue: VenueLabels): Promise<Located | undefined> {
  for (const lookup of venueLookups(venue)) {
    const place = accepted(lookup, await weather.places(lookup.query));
    if (place) return { place, query: lookup.query };
  }
  return undefined;
}
