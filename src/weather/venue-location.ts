import type { Place } from "./open-meteo.js";

/** What a venue is looked up by: its canonical name and city, and the other names it was met under. */
export type VenueLabels = { name: string; city: string | null; otherNames: readonly string[] };

/** One geocoding lookup: the text searched, and the city a match must lie in (when one is known). */
export type Lookup = { query: string; inCity?: string };

/** Lookups a venue may cost at most, so a venue that cannot be found stays cheap. */
const MAX_LOOKUPS = 5;

/**
 * The lookups that locate a venue, in order (docs/weather.md, "Locating a venue"): the
 * canonical venue with its stored city, then the raw names its sources wrote, then (a
 * ground lies in its city) the city itself. With a city every match must lie in it. Pure.
 */
export function venueLookups({ name, city, otherNames }: VenueLabels): Lookup[] {
  const inCity = city ?? undefined;
  const asked = new Set<string>();
  const names = [name, ...otherNames].filter((text) => !asked.has(fold(text)) && asked.add(fold(text)));
  const lookups = names.slice(0, city ? MAX_LOOKUPS - 1 : MAX_LOOKUPS).map((query) => ({ query, inCity }));
  return city && !asked.has(fold(city)) ? [...lookups, { query: city, inCity }] : lookups;
}

/**
 * The place a lookup accepts among the matches, best first: the first named as the text
 * searched, or as one of its comma-separated parts ("Wankhede Stadium, Mumbai": Mumbai), word
 * for word (a fuzzy match of something else is not the venue: "Sharjah Cricket Club" is not
 * "Sharjah Cricket Stadium"), and lying in the lookup's city when it has one (its name or one
 * of its areas is the city).
 */
export function accepted(lookup: Lookup, matches: readonly Place[]): Place | undefined {
  const names = new Set([lookup.query, ...lookup.query.split(",")].map(words));
  const city = lookup.inCity && words(lookup.inCity);
  return matches.find(
    (place) =>
      names.has(words(place.name)) &&
      (!city ||
        [place.name, place.admin1, place.admin2, place.admin3, place.admin4].some(
          (area) => area && words(area) === city,
        )),
  );
}

/** Case and accents aside ("Bengaluru", "bengaluru"; "Montréal", "Montreal"). */
const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .trim();

/** The words of a text, folded, one space apart ("M.Chinnaswamy Stadium" is "m chinnaswamy stadium"). */
const words = (text: string) =>
  fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(" ");
