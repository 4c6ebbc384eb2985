/**
 * How Cricsheet's names map onto our entities. Names are data: renamed teams and grounds,
 * and a competition spelled several ways, become one entity with several names.
 */

/** Former name → the name the team plays under now. */
const TEAM_RENAMES: Record<string, string> = {
  "Delhi Daredevils": "Delhi Capitals",
  "Kings XI Punjab": "Punjab Kings",
  "Royal Challengers Bangalore": "Royal Challengers Bengaluru",
  "Rising Pune Supergiants": "Rising Pune Supergiant",
};

/** Spellings of one competition → its current name. */
const COMPETITION_RENAMES: Record<string, string> = {
  "ICC World Twenty20": "ICC Men's T20 World Cup",
  "World T20": "ICC Men's T20 World Cup",
  "World Cup": "ICC Cricket World Cup",
};

/** Grounds renamed or spelled differently → the current name (matched after normalising). */
const GROUND_RENAMES: Record<string, string> = {
  "feroz shah kotla": "Arun Jaitley Stadium",
  "sardar patel stadium": "Narendra Modi Stadium",
  "punjab cricket association stadium": "Punjab Cricket Association IS Bindra Stadium",
  "sheikh zayed stadium": "Zayed Cricket Stadium",
  "subrata roy sahara stadium": "Maharashtra Cricket Association Stadium",
};

/** Ground names used by several grounds in different cities: the city is part of their identity. */
const AMBIGUOUS_GROUNDS = new Set(["county ground", "gymkhana ground", "national stadium", "university oval", "oval"]);

export const teamName = (name: string) => TEAM_RENAMES[name] ?? name;

export const competitionName = (name: string) => COMPETITION_RENAMES[name] ?? name;

const normalise = (name: string) => name.toLowerCase().replace(/[.]/g, " ").replace(/\s+/g, " ").trim();

/**
 * Cricsheet writes a ground with or without its locality ("Wankhede Stadium" and "Wankhede
 * Stadium, Mumbai"). The part before the first comma names the ground; the rest is where.
 */
export function ground(venue: string, city: string | undefined): { key: string; name: string } {
  const [first = venue] = venue.split(",");
  const base = normalise(first);
  const renamed = GROUND_RENAMES[base];
  const name = renamed ?? first.trim();
  const key = normalise(name);
  return { key: AMBIGUOUS_GROUNDS.has(key) && city ? `${key}|${normalise(city)}` : key, name };
}
