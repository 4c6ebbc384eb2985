import type { Place } from "./open-meteo.js";

/** What a venue is looked up by: its canonical name and city, and the other names it was met under. */
export type VenueLabels = { name: string; city: string | null; otherNames: readonly string[] };

/** One geocoding lookup: the text searched, and the city a match must lie in (when one is known). */
export type Lookup = { query: string; inCity?: string };

/** Lookups a venue may cost at most, so a venue that cannot be found stays cheap. */
const MAX_LOOKUPS = 4;

/**
 * The lookups that locate a venue, in order (docs/weather.md, "Locating a venue"): the
 * canonical venue with its stored city (its name, matched in that city; then the city
 * itself, as a ground lies in its city), then the raw names the sources wrote, each as
 * written. Pure.
 */
export function venueLookups({ name, city, otherNames }: VenueLabels): Lookup[] {
  const lookups: Lookup[] = city ? [{ query: name, inCity: city }, { query: city }] : [{ query: name }];
  const asked = new Set(lookups.filter((l) => !l.inCity).map((l) => fold(l.query)));
  for (const raw of otherNames) {
    if (asked.has(fold(raw))) continue;
    asked.add(fold(raw));
    lookups.push({ query: raw });
  }
  return lookups.slice(0, MAX_LOOKUPS);
}

/** The place a lookup accepts among the matches: the first, or the first in its city. */
export function accepted(lookup: Lookup, matches: readonly Place[]): Place | undefined {
  const { inCity } = lookup;
  if (!inCity) return matches[0];
  const city = fold(inCity);
  return matches.find((place) =>
    [place.name, place.admin1, place.admin2, place.admin3, place.admin4].some((area) => area && fold(area) === city),
  );
}

/** Case and accents aside ("Bengaluru", "bengaluru"; "Montréal", "Montreal"). */
const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .trim();
