import { LEADERBOARD_METRICS, type Metric } from "../statistics/leaderboards.js";
import type { QueryDefinition, SeasonReference } from "./definition.js";
import { LEADERBOARD_LIMIT, MAX_NAME_LENGTH } from "./definition.js";
import { fold, MAX_NAME_WORDS } from "./names.js";
import { figureWords, METRIC_WORDS } from "./paraphrase.js";
import { ALSO_INITIALS, basePhrases, type Meaning, numberWord, type Statistic } from "./phrases.js";
import { type Ambiguity, ambiguity, type Unmatched } from "./resolve.js";
import {
  type Competition,
  canonical,
  competitionsNamed,
  type Season,
  seasonForm,
  seasonLabel,
  type Vocabulary,
  withoutPlural,
} from "./vocabulary.js";

/**
 * Plain-English questions into query definitions, deterministically and offline: the words
 * are read against a phrase table (`phrases.ts`) and the competitions of the reference data,
 * years are read as seasons, and the words left over name the player. A question without a
 * statistic we publish, or with words we cannot place, is `no_match`; a leaderboard without
 * a season or competition is `ambiguous` between the competitions. Nothing is guessed.
 */
export type Translation =
  | { definition: QueryDefinition }
  | { outcome: "no_match"; unmatched: Unmatched[] }
  | { outcome: "ambiguous"; ambiguities: Ambiguity[] };

type Phrase = { words: string[]; meaning: Meaning | { kind: "competition"; text: string } };

/** Words as the phrase table holds them: years kept whole (`2007/08`), apostrophes gone. */
export function words(question: string): string[] {
  // "IPL2016": the competition and the year.
  const text = withoutPlural(fold(question)).replace(/(\p{L})(\d{4})\b/gu, "$1 $2");
  return text.match(/\d{4}\s*[/-]\s*\d{2,4}|[\p{L}\p{N}]+/gu) ?? [];
}

/** The phrase table with the vocabulary's competitions, by first word, longest first. */
const tables = new WeakMap<Vocabulary, Map<string, Phrase[]>>();
function phraseTable(vocabulary: Vocabulary): Map<string, Phrase[]> {
  let table = tables.get(vocabulary);
  if (table) return table;
  table = new Map();
  const seen = new Set<string>();
  const add = (phrase: string, meaning: Phrase["meaning"]) => {
    if (seen.has(phrase)) return;
    seen.add(phrase);
    const list = words(phrase);
    const first = list[0] as string;
    const entries = table?.get(first) ?? [];
    entries.push({ words: list, meaning });
    table?.set(first, entries);
  };
  // Competitions first: a competition's name wins over the filler words inside it ("league").
  for (const competition of vocabulary.competitions)
    for (const form of competition.forms) {
      add(form, { kind: "competition", text: form });
      add(`${form}s`, { kind: "competition", text: form });
    }
  for (const [phrase, meaning] of basePhrases()) add(phrase, meaning);
  for (const entries of table.values()) entries.sort((a, b) => b.words.length - a.words.length);
  tables.set(vocabulary, table);
  return table;
}

type Reading = {
  statistics: Statistic[];
  everything: boolean;
  discipline?: "batting" | "bowling" | "fielding";
  competition?: string;
  competitions: Set<string>;
  seasonNames: string[];
  ordinal?: number;
  seasonWord: boolean;
  allTime: boolean;
  role?: string;
  unknownCompetition?: string;
  comparison?: string;
  /** Which end of a table: "most"/"highest", "fewest"/"lowest", "worst". */
  direction?: "high" | "low" | "worst";
  women?: boolean;
  /** An ordinal right after "his"/"her"/"their": the player's own seasons. */
  playersOwnSeason: boolean;
  /** The number after a competition: "IPL 9", "IPL '16". */
  edition?: string;
  seasonId?: string;
  limit?: number;
  rest: string[];
};

const MAX_YEAR = 2100;
const MIN_YEAR = 1870;

/** Reads the words left to right, the longest phrase at each position first. */
function read(question: string, vocabulary: Vocabulary): Reading {
  const table = phraseTable(vocabulary);
  const list = words(question);
  const reading: Reading = {
    statistics: [],
    everything: false,
    competitions: new Set(),
    seasonNames: [],
    seasonWord: false,
    allTime: false,
    playersOwnSeason: false,
    rest: [],
  };
  let ordinalEnd = -1;
  let possessiveEnd = -1;
  let restEnd = -1;
  for (let i = 0; i < list.length; ) {
    const word = list[i] as string;
    const season = yearForm(word);
    if (season) {
      reading.seasonNames.push(season);
      i++;
      continue;
    }
    const next = list[i + 1];
    // "top 5", "top ten"; "5 best", "ten highest".
    if (word === "top" && next !== undefined && limitOf(next) !== undefined) {
      reading.limit = limitOf(next);
      i += 2;
      continue;
    }
    if (limitOf(word) !== undefined && next !== undefined && /^(best|highest|leading|top|most|biggest)$/.test(next)) {
      reading.limit = limitOf(word);
      i += 1;
      continue;
    }
    const phrase = table.get(word)?.find((p) => p.words.every((w, k) => list[i + k] === w));
    // Before a word no phrase starts with, initials: "SR Watson".
    const initials = ALSO_INITIALS.has(word) && next !== undefined && !table.has(next) && !yearForm(next);
    if (!phrase || initials) {
      reading.rest.push(word);
      restEnd = ++i;
      continue;
    }
    const start = i;
    const text = list.slice(i, i + phrase.words.length).join(" ");
    i += phrase.words.length;
    const meaning = phrase.meaning;
    if (meaning.kind === "competition") {
      reading.competitions.add(meaning.text);
      reading.competition = meaning.text;
      // "the first IPL", "the last T20 World Cup": a season.
      if (start === ordinalEnd) reading.seasonWord = true;
      // "IPL 9", "IPL '16": an edition, or a year.
      if (/^\d{1,2}$/.test(list[i] ?? "")) reading.edition = list[i++];
    } else if (meaning.kind === "statistic") reading.statistics.push(meaning.statistic);
    else if (meaning.kind === "everything") reading.everything = true;
    else if (meaning.kind === "discipline") reading.discipline = meaning.discipline;
    else if (meaning.kind === "limit") reading.limit = meaning.limit;
    else if (meaning.kind === "ordinal") {
      reading.ordinal = meaning.ordinal;
      ordinalEnd = i;
      if (start === possessiveEnd) reading.playersOwnSeason = true;
      if (word === "inaugural") reading.seasonWord = true;
    } else if (meaning.kind === "season-word") reading.seasonWord = true;
    else if (meaning.kind === "all-time") reading.allTime = true;
    else if (meaning.kind === "role") reading.role = text;
    else if (meaning.kind === "unknown-competition") reading.unknownCompetition = text;
    else if (meaning.kind === "comparison") reading.comparison = text;
    else if (meaning.kind === "direction") reading.direction = meaning.direction;
    else if (meaning.kind === "gender") reading.women = meaning.women;
    else if (meaning.kind === "possessive") possessiveEnd = i;
    else if (meaning.kind === "conjunction" && start === restEnd && next !== undefined && !table.has(next))
      reading.comparison = text;
  }
  return reading;
}

function yearForm(word: string): string | undefined {
  if (!/^\d{4}/.test(word)) return undefined;
  const form = seasonForm(word);
  const year = Number(word.slice(0, 4));
  return form && year >= MIN_YEAR && year <= MAX_YEAR ? form : undefined;
}

function limitOf(word: string): number | undefined {
  const n = /^\d{1,3}$/.test(word) ? Number(word) : numberWord(word);
  return n !== undefined && n >= 1 ? Math.min(n, LEADERBOARD_LIMIT.max) : undefined;
}

const noMatch = (text: string, message: string, entity: Unmatched["entity"] = "question"): Translation => ({
  outcome: "no_match",
  unmatched: [{ entity, text, message }],
});

const LEADERBOARD_WORDS = Object.values(METRIC_WORDS).join(", ");

export function translate(question: string, vocabulary: Vocabulary): Translation {
  const reading = read(question, vocabulary);
  const chosen = chosenStatistic(reading);
  const refused = refusal(question, reading, chosen);
  if (refused) return refused;
  const statistic = typeof chosen === "string" ? undefined : chosen;
  const mention = reading.rest.join(" ");
  // Without a statistic, only a request for figures ("stats", "career", "batting") asks for a
  // player's every figure: a competition or a year alone does not ("when does the IPL final start").
  const asksForFigures = reading.everything || reading.allTime || reading.discipline !== undefined;
  if (!statistic && !(mention && asksForFigures))
    return noMatch(
      question,
      "No statistic we publish was recognised: ask about runs, wickets, fours, sixes, averages, strike rates, economy, or a player's figures",
    );
  if (!reading.competition && statistic?.competition) reading.competition = statistic.competition;
  const gendered = withGender(reading, vocabulary);
  if (gendered) return gendered;
  if (reading.edition !== undefined) {
    const edition = editionSeason(vocabulary, reading.competition as string, reading.edition);
    if (!("found" in edition)) return edition;
    reading.seasonId = edition.found;
  }
  const season = seasonOf(reading);
  const competition = reading.competition ? { name: reading.competition } : undefined;
  const countedFromFirst = season !== undefined && "ordinal" in season && !season.competition;
  if (mention) {
    if (reading.rest.length > MAX_NAME_WORDS || mention.length > MAX_NAME_LENGTH)
      return noMatch(mention, "No player is known by this name", "participant");
    if (reading.playersOwnSeason)
      return noMatch(question, "Seasons counted from a player's first are not answered; name the season");
    if (countedFromFirst) return needsCompetition(vocabulary, question);
    const scope = season
      ? { type: "season" as const, season }
      : competition
        ? { type: "competition" as const, competition }
        : { type: "career" as const };
    const figure = statistic && !reading.everything ? { figure: statistic.figure } : {};
    return { definition: { type: "participant_aggregate", participant: { name: mention }, scope, ...figure } };
  }
  const metric = statistic?.metric;
  if (!metric)
    return noMatch(
      question,
      `No leaderboard ranks ${statistic ? figureWords(statistic.figure).replace(/^\w+ /, "") : "that"}; leaderboards rank ${LEADERBOARD_WORDS}`,
    );
  if (reading.direction && reading.direction !== BEST_END[LEADERBOARD_METRICS[metric].order])
    return noMatch(question, `Leaderboards rank only the best: the ${METRIC_WORDS[metric]}, not the other end`);
  if (season && !countedFromFirst)
    return { definition: leaderboard(metric, { type: "season", season }, reading.limit) };
  if (competition && !season)
    return { definition: leaderboard(metric, { type: "competition", competition }, reading.limit) };
  return needsCompetition(vocabulary, question);
}

/** Which end of a table a direction word asks for, by the metric's ranking order. */
const BEST_END = { descending: "high", ascending: "low" } as const;

/** Questions no read answers, said before anything is looked up. */
function refusal(question: string, reading: Reading, statistic: ReturnType<typeof chosenStatistic>) {
  if (reading.unknownCompetition)
    return noMatch(reading.unknownCompetition, "We hold no data of this competition", "competition");
  if (reading.role)
    return noMatch(
      question,
      `No read can pick out players by a role or group ("${reading.role}"); ask about all players`,
    );
  if (reading.comparison)
    return noMatch(
      question,
      `Comparisons ("${reading.comparison}") are not answered; ask about one player or one table at a time`,
    );
  if (statistic === "several")
    return noMatch(question, "The question asks for more than one statistic; ask for one at a time");
  if (statistic === "other discipline")
    return noMatch(
      question,
      `We publish no ${reading.discipline} figure of that kind ("sixes conceded", "wickets as a batter")`,
    );
  if (reading.competitions.size > 1)
    return noMatch(question, "The question names more than one competition; ask about one at a time");
  if (reading.seasonNames.length > 1)
    return noMatch(question, "The question names more than one season; ask about one at a time");
  return undefined;
}

/**
 * "Women" moves a competition to its women's form ("women's T20 World Cup"), and needs one
 * to: no read tells men's tables from women's. "Men" with a women's competition is refused.
 */
function withGender(reading: Reading, vocabulary: Vocabulary): Translation | undefined {
  if (reading.women === undefined) return undefined;
  const named = reading.competition;
  const womens = named !== undefined && competitionsNamed(vocabulary, named).every(isWomens);
  if (!reading.women)
    return womens ? noMatch(named, "A women's competition: the question asks about men", "competition") : undefined;
  if (womens) return undefined;
  const form = `women ${named ?? ""}`.trim();
  if (named && vocabulary.competitions.some((c) => c.forms.includes(form))) {
    reading.competition = form;
    return undefined;
  }
  return noMatch(
    named ?? "women",
    "Name the women's competition: no table is kept of women's figures alone",
    "competition",
  );
}

const isWomens = (competition: Competition) => canonical(competition.name).split(" ").includes("women");

/**
 * "IPL 9" is the ninth season; "IPL 16" the sixteenth, or the one played in 2016 (the
 * apostrophe of "IPL '16" is gone by now): when both exist the answer is ambiguous between them.
 */
function editionSeason(
  vocabulary: Vocabulary,
  competitionText: string,
  digits: string,
): { found: string } | Translation {
  const [competition, ...others] = competitionsNamed(vocabulary, competitionText);
  if (!competition || others.length > 0) return noMatch(competitionText, "Name the competition in full", "competition");
  const seasons = vocabulary.seasons.get(competition.id) ?? [];
  const byEdition = digits.startsWith("0") ? undefined : seasons[Number(digits) - 1];
  const byYear = digits.length === 2 ? seasons.find((s) => s.name === `20${digits}`) : undefined;
  const found = [...new Set([byEdition, byYear].filter((s) => s !== undefined))];
  if (found.length === 1) return { found: (found[0] as Season).id };
  if (found.length === 0)
    return noMatch(`${competition.name} ${digits}`, `${competition.name} has no season ${digits}`, "season");
  return {
    outcome: "ambiguous",
    ambiguities: [
      ambiguity(
        "season",
        `${competitionText} ${digits}`,
        "seasons",
        found.map((s) => ({ id: s.id, label: seasonLabel(vocabulary, s) })),
      ).ambiguity,
    ],
  };
}

/**
 * The one statistic asked for, read with its discipline ("bowling average", "runs conceded"
 * as `runs` with `bowling`); undefined for none, "several" for two different ones.
 */
function chosenStatistic(reading: Reading): Statistic | "several" | "other discipline" | undefined {
  const chosen = reading.statistics.map((s) => (reading.discipline === "bowling" && s.bowling ? s.bowling : s));
  const figures = new Set(chosen.map((s) => s.figure));
  if (figures.size > 1) return "several";
  const [statistic] = chosen;
  // "Sixes" with "bowler": sixes conceded, which no read holds.
  const group = statistic?.figure.split(".")[0];
  const otherDiscipline = ["batting", "bowling", "fielding"].filter((d) => d !== reading.discipline);
  if (reading.discipline && group && otherDiscipline.includes(group)) return "other discipline";
  return statistic;
}

function seasonOf(reading: Reading): SeasonReference | undefined {
  if (reading.seasonId) return { seasonId: reading.seasonId };
  const competition = reading.competition ? { competition: { name: reading.competition } } : {};
  const name = reading.seasonNames[0];
  if (name) return { ...competition, name };
  if (reading.ordinal !== undefined && reading.seasonWord)
    return { ...competition, ordinal: reading.ordinal } as SeasonReference;
  return undefined;
}

const leaderboard = (
  metric: Metric,
  scope: Extract<QueryDefinition, { type: "leaderboard" }>["scope"],
  limit?: number,
) => ({ type: "leaderboard", metric, scope, ...(limit ? { limit } : {}) }) as const;

/**
 * A leaderboard, or a season counted from the first, needs a competition: the candidates,
 * those with the most seasons first.
 */
function needsCompetition(vocabulary: Vocabulary, question: string): Translation {
  const seasons = (id: string) => vocabulary.seasons.get(id)?.length ?? 0;
  const candidates = [...vocabulary.competitions]
    .sort((a, b) => seasons(b.id) - seasons(a.id) || a.name.localeCompare(b.name))
    .map((c) => ({ id: c.id, label: c.name }));
  const { ambiguity: needed } = ambiguity("competition", question, "competitions", candidates);
  return {
    outcome: "ambiguous",
    ambiguities: [{ ...needed, message: "The question names no competition or season; ask again naming one of these" }],
  };
}
