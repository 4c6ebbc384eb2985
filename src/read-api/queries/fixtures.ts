import { fixtureStream } from "../../../streams/fixture.js";
import type { Sql } from "../../db/database.js";
import type { Direction, Keyed } from "../../http/pagination.js";
import type { Fixture, FixtureDetail, InningsSummary, ParticipantFixture } from "../schemas/fixture.js";

/** Fixtures in start-date order, then id (the `fixture_by_*` indexes serve each filter). */
export type FixtureKey = [startDate: string, fixtureId: string];
export type FixtureFilters = {
  competitionId?: string | undefined;
  seasonId?: string | undefined;
  season?: string | undefined;
  stage?: string | undefined;
  competitorId?: string | undefined;
  gender?: string | undefined;
  startDateFrom?: string | undefined;
  startDateTo?: string | undefined;
};
export type Page<K> = { direction: Direction; after?: K | undefined; take: number };

type CompetitorRef = { competitorId: string; name: string | null };
type FixtureRow = {
  fixture_id: string;
  version: number;
  competition_id: string;
  competition_name: string | null;
  season_id: string;
  season_label: string | null;
  season_name: string | null;
  venue_id: string | null;
  venue_name: string | null;
  venue_city: string | null;
  venue_latitude: number | null;
  venue_longitude: number | null;
  competitors: CompetitorRef[];
  start_date: string;
  end_date: string;
  match_type: Fixture["matchType"];
  team_type: Fixture["teamType"];
  gender: Fixture["gender"];
  balls_per_over: number;
  overs_per_innings: number | null;
  stage: string | null;
  match_number: number | null;
  toss: { winnerId: string; decision: "bat" | "field" } | null;
  outcome: {
    result: "won" | "tie" | "draw" | "no result";
    winnerId: string | null;
    by: { runs?: number; wickets?: number; innings?: number } | null;
    method: string | null;
    tieBreakWinnerId: string | null;
    tieBreak: "super over" | "bowl-out" | null;
    playerOfMatchIds: string[];
  } | null;
  source: { sourceId: string; revision: number } | null;
  /** The fixture's innings in order (JSON built by the query). */
  innings: InningsRow[];
  /** Names of the players of the match, by id (those the reference data has). */
  players_of_match: Record<string, string> | null;
};

type InningsRow = {
  innings_id: string;
  ordinal: number;
  batting_competitor_id: string;
  bowling_competitor_id: string;
  super_over: boolean;
  target: { runs: number; overs: number | null } | null;
  declared: boolean;
  forfeited: boolean;
  runs: number;
  wickets: number;
  legal_balls: number;
  deliveries: number;
};

const columns = (sql: Sql) => sql`
  f.fixture_id, coalesce(sv.revision, 0)::int as version,
  f.competition_id, c.name as competition_name, f.season_id, s.label as season_label, s.name as season_name,
  f.venue_id, v.name as venue_name, v.city as venue_city, v.latitude as venue_latitude, v.longitude as venue_longitude,
  f.competitors, f.start_date::text, f.end_date::text, f.match_type, f.team_type, f.gender, f.balls_per_over,
  f.overs_per_innings, f.stage, f.match_number, f.toss, f.outcome, f.source,
  coalesce((
    select json_agg(i order by i.ordinal, i.innings_id) from (
      select innings_id, ordinal, batting_competitor_id, bowling_competitor_id, super_over, target,
             declared, forfeited, runs, wickets, legal_balls, deliveries
      from innings where innings.fixture_id = f.fixture_id) i), '[]') as innings,
  (select json_object_agg(pom.id, (select name from participant where participant_id = pom.id))
   from jsonb_array_elements_text(f.outcome -> 'playerOfMatchIds') pom (id)) as players_of_match`;

const joins = (sql: Sql) => sql`
  left join competition c on c.competition_id = f.competition_id
  left join season s on s.season_id = f.season_id
  left join venue v on v.venue_id = f.venue_id
  left join stream_version sv on sv.stream_id = 'fixture-' || f.fixture_id`;

const filters = (sql: Sql, q: FixtureFilters) => sql`
  ${q.competitionId ? sql`and f.competition_id = ${q.competitionId}` : sql``}
  ${q.seasonId ? sql`and f.season_id = ${q.seasonId}` : sql``}
  ${q.season ? sql`and f.season_id in (select season_id from season where ${q.season} in (label, name))` : sql``}
  ${q.stage ? sql`and lower(f.stage) = lower(${q.stage})` : sql``}
  ${q.competitorId ? sql`and f.competitor_ids @> array[${q.competitorId}]::text[]` : sql``}
  ${q.gender ? sql`and f.gender = ${q.gender}` : sql``}
  ${q.startDateFrom ? sql`and f.start_date >= ${q.startDateFrom}::date` : sql``}
  ${q.startDateTo ? sql`and f.start_date <= ${q.startDateTo}::date` : sql``}`;

/** The condition past the page's cursor and the page's order, on the start date and fixture id of `alias`. */
const keyset = (sql: Sql, page: Page<FixtureKey>, alias = "f") => {
  const [startDate, fixtureId] = [sql`${sql(alias)}.start_date`, sql`${sql(alias)}.fixture_id`];
  const asc = page.direction === "asc";
  const after = page.after
    ? asc
      ? sql`and (${startDate}, ${fixtureId}) > (${page.after[0]}::date, ${page.after[1]})`
      : sql`and (${startDate}, ${fixtureId}) < (${page.after[0]}::date, ${page.after[1]})`
    : sql``;
  const order = asc ? sql`${startDate} asc, ${fixtureId} asc` : sql`${startDate} desc, ${fixtureId} desc`;
  return { after, order };
};

export async function listFixtures(sql: Sql, q: FixtureFilters, page: Page<FixtureKey>) {
  const { after, order } = keyset(sql, page);
  const rows = await sql<FixtureRow[]>`
    select ${columns(sql)} from fixture f ${joins(sql)}
    where true ${filters(sql, q)} ${after}
    order by ${order} limit ${page.take}`;
  return rows.map(
    (row): Keyed<Fixture, FixtureKey> => ({ item: fixtureOf(row), key: [row.start_date, row.fixture_id] }),
  );
}

/**
 * Fixtures a participant was named in a squad for, or appears in a delivery of. The page is
 * chosen first, from the squads in date order (an index that holds each member's start date)
 * and the few fixtures the participant appears in without being named (found from the ids
 * of all their fixtures, index entries only, then read by key; the outer query orders and
 * cuts the page, since a branch ordered and cut here was planned as a walk of every fixture
 * by date). Few: a substitute fielder's; every one after the cursor is read and sorted.
 * Only the page's fixtures are read in full.
 */
export async function listParticipantFixtures(sql: Sql, participantId: string, page: Page<FixtureKey>) {
  const { after, order } = keyset(sql, page);
  const squads = keyset(sql, page, "s");
  const chosen = keyset(sql, page, "p").order;
  const named = sql`
    select s.fixture_id, s.start_date, max(s.competitor_id) as squad_competitor_id, true as in_squad
    from squad_member s where s.participant_id = ${participantId} ${squads.after}
    group by s.start_date, s.fixture_id order by ${squads.order} limit ${page.take}`;
  const unnamed = sql`
    select f.fixture_id, f.start_date, null as squad_competitor_id, false as in_squad
    from fixture f
    where f.fixture_id = any(array(
            select fixture_id from appearance where participant_id = ${participantId}
            except select fixture_id from squad_member where participant_id = ${participantId})) ${after}`;
  const rows = await sql<(FixtureRow & { squad_competitor_id: string | null; in_squad: boolean; appeared: boolean })[]>`
    select ${columns(sql)}, pf.squad_competitor_id, pf.in_squad,
           exists (select 1 from appearance a where a.participant_id = ${participantId}
                   and a.fixture_id = f.fixture_id) as appeared
    from (select * from ((${named}) union all (${unnamed})) p order by ${chosen} limit ${page.take}) pf
    join fixture f on f.fixture_id = pf.fixture_id
    ${joins(sql)}
    order by ${order}`;
  return rows.map((row): Keyed<ParticipantFixture, FixtureKey> => {
    const fixture = fixtureOf(row);
    const squad = row.squad_competitor_id;
    return {
      item: {
        ...fixture,
        participation: {
          competitor: squad ? competitorIn(row, squad) : null,
          inSquad: row.in_squad,
          appeared: row.appeared,
        },
      },
      key: [fixture.startDate, fixture.fixtureId],
    };
  });
}

export async function findFixture(sql: Sql, fixtureId: string): Promise<FixtureDetail | undefined> {
  const [row] = await sql<(FixtureRow & { squad: SquadMember[] })[]>`
    select ${columns(sql)}, ${squadOf(sql)} as squad
    from fixture f ${joins(sql)} where f.fixture_id = ${fixtureId}`;
  if (!row) return undefined;
  const membersOf = (competitorId: string) =>
    row.squad
      .filter((m) => m.competitor_id === competitorId)
      .map((m) => ({ participantId: m.participant_id, name: m.name }));
  const named = [...new Set(row.squad.map((m) => m.competitor_id))];
  const order = row.competitors.map((c) => c.competitorId);
  named.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  return {
    ...fixtureOf(row),
    squads: named.map((id) => ({ competitor: competitorIn(row, id), participants: membersOf(id) })),
  };
}

export type SquadMember = { competitor_id: string; participant_id: string; name: string | null };

/**
 * The squads of the fixture `f` (the query's alias), as named, with each member's name: a JSON
 * array of `SquadMember` for a select list. A name is looked up by key for each member (a
 * hash join read every participant to name twenty-two).
 */
export const squadOf = (sql: Sql) => sql`
  coalesce((
    select json_agg(m order by m.competitor_id, m.position) from (
      select s.competitor_id, s.participant_id, s.position,
             (select p.name from participant p where p.participant_id = s.participant_id) as name
      from squad_member s where s.fixture_id = f.fixture_id) m), '[]')`;

/** The fixture's current version, or undefined when there is no such fixture. */
export async function fixtureVersion(sql: Sql, fixtureId: string): Promise<number | undefined> {
  const [row] = await sql<{ version: number }[]>`${versionOf(sql, fixtureId)}`;
  return row?.version;
}

/** The query of the fixture's version (`version`; no row for no such fixture), also a scalar subquery. */
export const versionOf = (sql: Sql, fixtureId: string) => sql`
  select coalesce(sv.revision, 0)::int as version
  from fixture f left join stream_version sv on sv.stream_id = 'fixture-' || f.fixture_id
  where f.fixture_id = ${fixtureId}`;

/** Each fixture's version (0 before its stream is projected), by id. */
export async function fixtureVersions(sql: Sql, fixtureIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await sql<{ stream_id: string; revision: string }[]>`
    select stream_id, revision from stream_version where stream_id = any(${fixtureIds.map(fixtureStream)})`;
  const byStream = new Map(rows.map((r) => [r.stream_id, Number(r.revision)]));
  return new Map(fixtureIds.map((id) => [id, byStream.get(fixtureStream(id)) ?? 0]));
}

/** A competitor as this fixture names it (the name it played under). */
const competitorIn = (row: FixtureRow, competitorId: string) => ({
  competitorId,
  name: row.competitors.find((c) => c.competitorId === competitorId)?.name ?? null,
});

const overs = (legalBalls: number, ballsPerOver: number) =>
  `${Math.floor(legalBalls / ballsPerOver)}.${legalBalls % ballsPerOver}`;

/** The fixture a row holds, with its innings and the names of players of the match. */
function fixtureOf(r: FixtureRow): Fixture {
  const names = r.players_of_match ?? {};
  const inningsOf = r.innings.map(
    (i): InningsSummary => ({
      inningsId: i.innings_id,
      ordinal: i.ordinal,
      battingCompetitor: competitorIn(r, i.batting_competitor_id),
      bowlingCompetitor: competitorIn(r, i.bowling_competitor_id),
      superOver: i.super_over,
      declared: i.declared,
      forfeited: i.forfeited,
      target: i.target,
      runs: i.runs,
      wickets: i.wickets,
      legalBalls: i.legal_balls,
      overs: overs(i.legal_balls, r.balls_per_over),
      deliveryCount: i.deliveries,
    }),
  );
  const o = r.outcome;
  return {
    fixtureId: r.fixture_id,
    version: r.version,
    competition: { competitionId: r.competition_id, name: r.competition_name },
    season: { seasonId: r.season_id, label: r.season_label, name: r.season_name },
    venue: r.venue_id
      ? {
          venueId: r.venue_id,
          name: r.venue_name,
          city: r.venue_city,
          latitude: r.venue_latitude,
          longitude: r.venue_longitude,
        }
      : null,
    competitors: r.competitors.map((c) => ({ competitorId: c.competitorId, name: c.name })),
    startDate: r.start_date,
    endDate: r.end_date,
    matchType: r.match_type,
    teamType: r.team_type,
    gender: r.gender,
    ballsPerOver: r.balls_per_over,
    oversPerInnings: r.overs_per_innings,
    stage: r.stage,
    matchNumber: r.match_number,
    toss: r.toss ? { winner: competitorIn(r, r.toss.winnerId), decision: r.toss.decision } : null,
    outcome: o
      ? {
          result: o.result,
          winner: o.winnerId ? competitorIn(r, o.winnerId) : null,
          by: o.by,
          method: o.method,
          tieBreak: o.tieBreak,
          tieBreakWinner: o.tieBreakWinnerId ? competitorIn(r, o.tieBreakWinnerId) : null,
          playersOfMatch: o.playerOfMatchIds.map((id) => ({ participantId: id, name: names[id] ?? null })),
        }
      : null,
    innings: inningsOf,
    source: r.source ? { sourceId: r.source.sourceId, revision: r.source.revision } : null,
  };
}
