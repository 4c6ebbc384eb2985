import type { PendingQuery, Row } from "postgres";
import type { Sql } from "../../db/database.js";
import type { Direction, Keyed } from "../../http/pagination.js";
import { INITIAL_MARK, words } from "../../names/search-text.js";
import type { Competition, Competitor, Participant, Season } from "../schemas/reference.js";

/**
 * Competitions, competitors and participants are listed by name (case-insensitive, the
 * `sort_name` column) then id; the `name` filter matches the words of any known spelling.
 */
export type NameKey = [sortName: string, id: string];
export type NamedQuery = { name?: string | undefined; direction: Direction; after?: NameKey | undefined; take: number };

type NamedTable = "competition" | "competitor" | "participant";
type Fragment = PendingQuery<Row[]>;
type NamedRow = { id: string; name: string; alternative_names: string[]; source_ids: string[]; sort_name: string };

/** The columns every named entity is read with (the id as `id`), and the table's own. */
const namedColumns = (sql: Sql, table: NamedTable, extra: string[]) =>
  sql`${sql(`${table}_id`)} as id, name, alternative_names, source_ids, sort_name
    ${extra.length ? sql`, ${sql(extra)}` : sql``}`;

function named<Row extends NamedRow>(sql: Sql, table: NamedTable, extra: string[], q: NamedQuery) {
  const columns = namedColumns(sql, table, extra);
  // The cursor's condition, order and limit on the key column `id` names.
  const page = (id: Fragment) => {
    const after = q.after
      ? q.direction === "asc"
        ? sql`and (sort_name, ${id}) > (${q.after[0]}, ${q.after[1]})`
        : sql`and (sort_name, ${id}) < (${q.after[0]}, ${q.after[1]})`
      : sql``;
    const order = q.direction === "asc" ? sql`sort_name asc, ${id} asc` : sql`sort_name desc, ${id} desc`;
    return sql`${after} order by ${order} limit ${q.take}`;
  };
  const filter = q.name ? nameFilter(sql, table, q.name) : undefined;
  if (filter?.indexed)
    return sql<Row[]>`
      with matched as materialized (select ${columns} from ${sql(table)} where true ${filter.condition})
      select * from matched where true ${page(sql`id`)}`;
  return sql<Row[]>`
    select ${columns} from ${sql(table)}
    where true ${filter?.condition ?? sql``} ${page(sql`${sql(`${table}_id`)}`)}`;
}

/**
 * Every word of `name` starts a word of one of the entity's spellings, in any order, case
 * and accents aside (src/names/search-text.ts). For participants a word may instead match an
 * initial ("virat" the "V" of "V Kohli") when another word matches a word in full, so
 * "virat kohli" finds V Kohli while "virat" alone finds only players named Virat.
 *
 * A word of three characters or more is a LIKE the trigram index (`*_by_search_text`)
 * serves, so a rare name reads a few rows however many names there are; a shorter word has
 * no trigram to look up and matches so many names that walking them in name order fills a
 * page soonest. Where the index can serve the filter, the matches are found first and then
 * ordered (`named`): the read pool's generic plan guesses a LIKE keeps one row in 200, so
 * past about 4,000 names (five IPLs) it expected a page sooner by walking every name in
 * order, and took 2 ms where the trigram index takes 0.1.
 */
const TRIGRAM = 3;

/**
 * The name filter's condition, and whether the trigram index can find its matches: some word
 * long enough for it, or for participants every word, since "some word matches in full" is an
 * OR the index serves only when each of its words is a LIKE ("v kohli" is walked in name order).
 */
function nameFilter(sql: Sql, table: NamedTable, name: string): { condition: Fragment; indexed: boolean } {
  const tokens = words(name);
  if (tokens.length === 0) return { condition: sql`and false`, indexed: false };
  const long = (token: string) => token.length >= TRIGRAM;
  const starts = (token: string) =>
    long(token) ? sql`search_text like ${`% ${token}%`}` : sql`strpos(search_text, ${` ${token}`}) > 0`;
  const all = (conditions: Fragment[]) => conditions.reduce((a, b) => sql`${a} and ${b}`);
  const any = (conditions: Fragment[]) => conditions.reduce((a, b) => sql`${a} or ${b}`);
  if (table !== "participant") return { condition: sql`and ${all(tokens.map(starts))}`, indexed: tokens.some(long) };
  const initial = (token: string) => sql`strpos(search_text, ${` ${INITIAL_MARK}${token[0]}`}) > 0`;
  return {
    condition: sql`and ${all(tokens.map((t) => sql`(${starts(t)} or ${initial(t)})`))} and (${any(tokens.map(starts))})`,
    indexed: tokens.every(long),
  };
}

const byId = <Row>(sql: Sql, table: NamedTable, id: string, extra: string[]) => sql<(Row & NamedRow)[]>`
  select ${namedColumns(sql, table, extra)} from ${sql(table)} where ${sql(`${table}_id`)} = ${id}`;

const nameKey = (r: NamedRow): NameKey => [r.sort_name, r.id];

const competition = (r: NamedRow): Competition => ({
  competitionId: r.id,
  name: r.name,
  alternativeNames: r.alternative_names,
  sourceIds: r.source_ids,
});

type CompetitorRow = NamedRow & { team_type: Competitor["teamType"]; gender: Competitor["gender"] };
const competitor = (r: CompetitorRow): Competitor => ({
  competitorId: r.id,
  name: r.name,
  alternativeNames: r.alternative_names,
  teamType: r.team_type,
  gender: r.gender,
  sourceIds: r.source_ids,
});

const participant = (r: NamedRow): Participant => ({
  participantId: r.id,
  name: r.name,
  alternativeNames: r.alternative_names,
  sourceIds: r.source_ids,
});

const keyed =
  <Row extends NamedRow, T>(toItem: (r: Row) => T) =>
  (r: Row): Keyed<T, NameKey> => ({ item: toItem(r), key: nameKey(r) });

export const listCompetitions = async (sql: Sql, q: NamedQuery) =>
  (await named<NamedRow>(sql, "competition", [], q)).map(keyed(competition));
export const findCompetition = async (sql: Sql, id: string) =>
  (await byId<NamedRow>(sql, "competition", id, [])).map(competition)[0];

export const listCompetitors = async (sql: Sql, q: NamedQuery) =>
  (await named<CompetitorRow>(sql, "competitor", ["team_type", "gender"], q)).map(keyed(competitor));
export const findCompetitor = async (sql: Sql, id: string) =>
  (await byId<CompetitorRow>(sql, "competitor", id, ["team_type", "gender"])).map(competitor)[0];

export const listParticipants = async (sql: Sql, q: NamedQuery) =>
  (await named<NamedRow>(sql, "participant", [], q)).map(keyed(participant));
export const findParticipant = async (sql: Sql, id: string) =>
  (await byId<NamedRow>(sql, "participant", id, [])).map(participant)[0];

/**
 * Seasons by the start date of their first fixture (seasons without one last), then id.
 * Seasons are few (tens per competition), so the order is computed, not indexed.
 */
export type SeasonKey = [sortDate: string, id: string];
export type SeasonQuery = {
  competitionId?: string | undefined;
  direction: Direction;
  after?: SeasonKey | undefined;
  take: number;
};

type SeasonRow = {
  season_id: string;
  competition_id: string;
  competition_name: string | null;
  label: string;
  name: string;
  start_date: string | null;
  end_date: string | null;
  fixture_count: number;
  sort_date: string;
};

const season = (r: SeasonRow): Season => ({
  seasonId: r.season_id,
  competition: { competitionId: r.competition_id, name: r.competition_name },
  label: r.label,
  name: r.name,
  startDate: r.start_date,
  endDate: r.end_date,
  fixtureCount: r.fixture_count,
});

const seasonColumns = (sql: Sql) => sql`
  s.season_id, s.competition_id, c.name as competition_name, s.label, s.name, s.start_date::text,
  s.end_date::text, s.fixture_count, coalesce(s.start_date, '9999-12-31'::date)::text as sort_date`;

export async function listSeasons(sql: Sql, q: SeasonQuery) {
  const key = sql`(coalesce(s.start_date, '9999-12-31'::date), s.season_id)`;
  const after = q.after
    ? q.direction === "asc"
      ? sql`and ${key} > (${q.after[0]}::date, ${q.after[1]})`
      : sql`and ${key} < (${q.after[0]}::date, ${q.after[1]})`
    : sql``;
  const rows = await sql<SeasonRow[]>`
    select ${seasonColumns(sql)}
    from season s left join competition c on c.competition_id = s.competition_id
    where true
      ${q.competitionId ? sql`and s.competition_id = ${q.competitionId}` : sql``}
      ${after}
    order by coalesce(s.start_date, '9999-12-31'::date) ${q.direction === "asc" ? sql`asc` : sql`desc`},
             s.season_id ${q.direction === "asc" ? sql`asc` : sql`desc`}
    limit ${q.take}`;
  return rows.map((r): Keyed<Season, SeasonKey> => ({ item: season(r), key: [r.sort_date, r.season_id] }));
}

export async function findSeason(sql: Sql, id: string) {
  const rows = await sql<SeasonRow[]>`
    select ${seasonColumns(sql)}
    from season s left join competition c on c.competition_id = s.competition_id
    where s.season_id = ${id}`;
  return rows.map(season)[0];
}

/** Registered names of the given participants. */
export async function participantNames(sql: Sql, ids: Iterable<string>): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await sql<{ participant_id: string; name: string }[]>`
    select participant_id, name from participant where participant_id = any(${unique})`;
  return new Map(rows.map((r) => [r.participant_id, r.name]));
}
