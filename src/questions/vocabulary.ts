import type { Sql } from "../db/database.js";
import { referenceNames } from "../read-api/queries/question-facts.js";
import { KNOWN_NAMES } from "./known-names.js";
import { NameIndex, normalise } from "./names.js";

/**
 * What questions and definitions may name, read from the reference data: competitions with
 * every way of writing them, seasons with their names and labels, and an index of players.
 * Built once per change of the reference data (the route memoises it).
 */
export type Competition = { id: string; name: string; forms: string[] };
export type Season = { id: string; competitionId: string; label: string; name: string };

export type Vocabulary = {
  competitions: Competition[];
  /** Each competition's seasons, oldest first. */
  seasons: Map<string, Season[]>;
  participants: NameIndex;
  participantNames: Map<string, string>;
};

/**
 * Ways of writing a competition that its names do not give: a competition written any way of
 * a group is also every other way of it. (Whichever name its first imported match used
 * became the registered one, so the group is found from any of them.) The ICC's prefix,
 * "Men's" and "The" are dropped from every name anyway (`T20 World Cup`, `Ashes`), and the
 * initials of three or more words are added (`IPL`, `WPL`, `CWC`).
 */
const ALIASES: readonly (readonly string[])[] = [
  ["t20 world cup", "world t20", "world twenty20", "t20 wc", "twenty20 world cup", "t20i world cup", "world cup t20"],
  ["women t20 world cup", "women world t20", "women world twenty20", "women t20 wc", "women twenty20 world cup"],
  ["cricket world cup", "world cup", "odi world cup", "one day world cup", "50 over world cup"],
];

/** `mens`/`womens` as `men`/`women`, the way the names have it after the apostrophe goes. */
export const withoutPlural = (text: string) => text.replace(/\b(wo)?mens\b/g, "$1men");

/** Text as competition names are compared. */
export const canonical = (text: string) => withoutPlural(normalise(text));

function competitionForms(names: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const name of names) {
    const full = canonical(name);
    const short = full.replace(/^(icc|the) /, "").replace(/\bmen /, "");
    forms.add(full).add(short);
    const words = short.split(" ");
    if (words.length >= 3) forms.add(words.map((w) => w[0]).join(""));
  }
  for (const group of ALIASES) if (group.some((form) => forms.has(form))) for (const form of group) forms.add(form);
  return [...forms];
}

const knownAs = new Map(KNOWN_NAMES.map(([registerId, , names]) => [`cricsheet:participant:${registerId}`, names]));

export async function loadVocabulary(sql: Sql): Promise<Vocabulary> {
  const {
    competitions: competitionRows,
    seasons: seasonRows,
    participants: participantRows,
  } = await referenceNames(sql);
  const seasons = new Map<string, Season[]>();
  for (const r of seasonRows) {
    const list = seasons.get(r.competition_id) ?? [];
    list.push({ id: r.season_id, competitionId: r.competition_id, label: r.label, name: r.name });
    seasons.set(r.competition_id, list);
  }
  return {
    competitions: competitionRows.map((r) => ({
      id: r.competition_id,
      name: r.name,
      forms: competitionForms([r.name, ...r.alternative_names]),
    })),
    seasons,
    participants: new NameIndex(
      participantRows.map((r) => ({
        id: r.participant_id,
        names: [r.name, ...r.alternative_names, ...r.source_ids.flatMap((source) => knownAs.get(source) ?? [])],
      })),
    ),
    participantNames: new Map(participantRows.map((r) => [r.participant_id, r.name])),
  };
}

/** Competitions a name can mean: any of their forms written exactly (after `canonical`). */
export function competitionsNamed(vocabulary: Vocabulary, name: string): Competition[] {
  const typed = canonical(name);
  return vocabulary.competitions.filter((c) => c.forms.includes(typed));
}

/**
 * `2007-08`, `2007/2008` and `2007/08` all as `2007/08`; a single year as it is; undefined
 * for anything else (or a second year that does not follow the first).
 */
export function seasonForm(text: string): string | undefined {
  const match = /^(\d{4})(?:\s*[/-]\s*(\d{2}|\d{4}))?$/.exec(text.trim());
  if (!match) return undefined;
  const [, first, second] = match as unknown as [string, string, string | undefined];
  if (second === undefined) return first;
  const next = String(Number(first) + 1);
  if (second !== next && second !== next.slice(2)) return undefined;
  return `${first}/${next.slice(2)}`;
}

/** Seasons of the competitions given (all when none) whose name or source label is `form`. */
export function seasonsNamed(vocabulary: Vocabulary, form: string, competitionIds?: readonly string[]): Season[] {
  const ids = competitionIds ?? [...vocabulary.seasons.keys()];
  return ids.flatMap((id) => (vocabulary.seasons.get(id) ?? []).filter((s) => s.name === form || s.label === form));
}

export const competitionName = (vocabulary: Vocabulary, id: string) =>
  vocabulary.competitions.find((c) => c.id === id)?.name ?? id;

/** "Indian Premier League 2008 (2007/08)": the competition, the season's name, its label where that differs. */
export function seasonLabel(vocabulary: Vocabulary, season: Season): string {
  const label = season.label !== season.name ? ` (${season.label})` : "";
  return `${competitionName(vocabulary, season.competitionId)} ${season.name}${label}`;
}
