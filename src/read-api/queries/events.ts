import { isUuid } from "../../../streams/shared.js";
import type { Sql } from "../../db/database.js";
import type { Keyed } from "../../http/pagination.js";
import type { InningsTeams } from "../events-csv.js";
import type { Event } from "../schemas/event.js";
import { versionOf } from "./fixtures.js";
import { participantNames } from "./reference.js";

/**
 * A fixture's current deliveries in occurrence order: innings ordinal, then sequence number
 * (event id last, so the order is total). Every query is scoped to one fixture and rides the
 * `delivery_in_occurrence_order` index.
 */
export type EventKey = [inningsOrdinal: number, sequenceNumber: number, eventId: string];
export type EventFilters = {
  inningsId?: string | undefined;
  /** Deliveries of the innings this competitor batted. */
  competitorId?: string | undefined;
  /** Striker, non-striker, bowler, player out or fielder. */
  participantId?: string | undefined;
  overNumber?: number | undefined;
  /** Case-insensitive. */
  wicketKind?: string | undefined;
};

type Wicket = { kind: string; playerOutId: string; fielders: { participantId: string; substitute: boolean }[] };
export type DeliveryRow = {
  event_id: string;
  fixture_id: string;
  innings_id: string;
  innings_ordinal: number;
  sequence_number: number;
  revision: number;
  over_number: number;
  position_in_over: number;
  ball_number: string | null;
  striker_id: string;
  non_striker_id: string;
  bowler_id: string;
  runs_off_bat: number;
  runs_extras: number;
  runs_total: number;
  runs_non_boundary: boolean | null;
  extra_wides: number | null;
  extra_no_balls: number | null;
  extra_byes: number | null;
  extra_leg_byes: number | null;
  extra_penalty: number | null;
  wickets: Wicket[];
};

/** The row as read; `event_id` is its text, so orderings name the uuid column (`delivery.event_id`) and ride the index. */
const columns = (sql: Sql) => sql`
  event_id::text, fixture_id, innings_id, innings_ordinal, sequence_number, revision, over_number, position_in_over,
  ball_number, striker_id, non_striker_id, bowler_id, runs_off_bat, runs_extras, runs_total, runs_non_boundary,
  extra_wides, extra_no_balls, extra_byes, extra_leg_byes, extra_penalty, wickets`;

const matching = (sql: Sql, fixtureId: string, f: EventFilters) => sql`
  fixture_id = ${fixtureId}
  ${f.inningsId ? sql`and innings_id = ${f.inningsId}` : sql``}
  ${f.competitorId ? sql`and batting_competitor_id = ${f.competitorId}` : sql``}
  ${f.participantId ? sql`and participant_ids @> array[${f.participantId}]::text[]` : sql``}
  ${f.overNumber !== undefined ? sql`and over_number = ${f.overNumber}` : sql``}
  ${f.wicketKind ? sql`and wicket_kinds @> array[lower(${f.wicketKind})]::text[]` : sql``}`;

/** A delivery row with everyone in it (striker, non-striker, bowler, players out and fielders). */
type NamedRow = DeliveryRow & { participant_ids: string[] };

/**
 * Up to `take` rows in occurrence order, strictly after `after`. Without the ids of everyone
 * in them: the readers that name them do it in the query (`namedDeliveries`), and decoding
 * an array a row was a twentieth of an export's work.
 */
export const deliveryRows = (
  sql: Sql,
  fixtureId: string,
  filters: EventFilters,
  after: EventKey | undefined,
  take: number,
) => pageOf<DeliveryRow>(sql, fixtureId, filters, after, take, false);

/** The same rows with everyone in them, for a query that names them. */
const namedRows = (sql: Sql, fixtureId: string, filters: EventFilters, after: EventKey | undefined, take: number) =>
  pageOf<NamedRow>(sql, fixtureId, filters, after, take, true);

/** The row's columns, and the ids of everyone in it when the query names them. */
const selected = (sql: Sql, named: boolean) => (named ? sql`${columns(sql)}, participant_ids` : columns(sql));

const pageOf = <Row extends DeliveryRow>(
  sql: Sql,
  fixtureId: string,
  filters: EventFilters,
  after: EventKey | undefined,
  take: number,
  named: boolean,
) => sql<Row[]>`
  select ${selected(sql, named)} from delivery
  where ${matching(sql, fixtureId, filters)}
    ${after ? sql`and (innings_ordinal, sequence_number, event_id) > (${after[0]}, ${after[1]}, ${after[2]}::uuid)` : sql``}
  order by innings_ordinal, sequence_number, delivery.event_id
  limit ${take}`;

/**
 * What an export is made of, read before its body: the fixture's version (undefined for no
 * such fixture), how many deliveries match, and an MD5 of which in which revision
 * (`<eventId>:<revision>` in occurrence order, comma-joined) and of the names they show
 * (`<participantId>=<name>` by id, comma-joined); empty when none. Each name is looked up
 * by key: a join read every participant, whose number grows with the data while a
 * fixture's two dozen do not.
 */
export async function exportDigest(
  sql: Sql,
  fixtureId: string,
  filters: EventFilters,
): Promise<{ version: number | undefined; count: number; rows: string; names: string }> {
  const [digest] = await sql<{ version: number | null; count: number; rows: string; names: string }[]>`
    with matched as (
      select event_id, revision, innings_ordinal, sequence_number, participant_ids from delivery
      where ${matching(sql, fixtureId, filters)})
    select
      (${versionOf(sql, fixtureId)}) as version,
      (select count(*)::int from matched) as count,
      (select coalesce(md5(string_agg(event_id::text || ':' || revision, ','
         order by innings_ordinal, sequence_number, event_id)), '') from matched) as rows,
      (select coalesce(md5(string_agg(
                shown.id || '=' || (select name from participant where participant_id = shown.id),
                ',' order by shown.id collate "C")), '')
         from (select distinct unnest(participant_ids) as id from matched) shown) as names`;
  const { version, ...made } = digest as NonNullable<typeof digest>;
  return { version: version ?? undefined, ...made };
}

/**
 * A page of the fixture's events and the fixture's version (undefined for no such fixture),
 * read in one round trip: the rows and their names come back as two JSON values, which
 * Postgres builds and `JSON.parse` reads faster than row-by-row decoding of 22 columns.
 */
export async function listEvents(
  sql: Sql,
  fixtureId: string,
  filters: EventFilters,
  after: EventKey | undefined,
  take: number,
): Promise<{ version: number | undefined; events: Keyed<Event, EventKey>[] }> {
  const found = await namedDeliveries(sql, fixtureId, namedRows(sql, fixtureId, filters, after, take));
  const events = eventsOf(found.rows, found.names);
  return {
    version: found.version,
    events: events.map((item) => ({ item, key: [item.inningsOrdinal, item.sequenceNumber, item.eventId] })),
  };
}

/** The event and the fixture's version, in one round trip; an undefined version for no such fixture. */
export async function findEvent(
  sql: Sql,
  fixtureId: string,
  eventId: string,
): Promise<{ version: number | undefined; event: Event | undefined }> {
  const one = isUuid(eventId)
    ? sql<
        NamedRow[]
      >`select ${selected(sql, true)} from delivery where fixture_id = ${fixtureId} and event_id = ${eventId}::uuid`
    : sql<NamedRow[]>`select ${selected(sql, true)} from delivery where false`;
  const found = await namedDeliveries(sql, fixtureId, one);
  return { version: found.version, event: eventsOf(found.rows, found.names)[0] };
}

/** The rows `selected` picks (in its order), the names of everyone in them and the fixture's version. */
async function namedDeliveries(sql: Sql, fixtureId: string, selected: ReturnType<typeof namedRows>) {
  const [found] = await sql<{ version: number | null; rows: DeliveryRow[]; names: Record<string, string> | null }[]>`
    with picked as (${selected})
    select
      (${versionOf(sql, fixtureId)}) as version,
      coalesce((select json_agg(picked order by innings_ordinal, sequence_number, event_id::uuid) from picked), '[]') as rows,
      (select json_object_agg(shown.id, (select name from participant where participant_id = shown.id))
       from (select distinct unnest(participant_ids) as id from picked) shown) as names`;
  const { version, rows, names } = found as NonNullable<typeof found>;
  return { version: version ?? undefined, rows, names: new Map(Object.entries(names ?? {})) };
}

/** The public events of the rows, with the names of everyone involved. */
export async function toEvents(sql: Sql, rows: readonly DeliveryRow[]): Promise<Event[]> {
  const names = await participantNames(
    sql,
    rows.flatMap((r) => [
      r.striker_id,
      r.non_striker_id,
      r.bowler_id,
      ...r.wickets.flatMap((w) => [w.playerOutId, ...w.fielders.map((f) => f.participantId)]),
    ]),
  );
  return eventsOf(rows, names);
}

/** The public events of the rows, named from `names`. */
function eventsOf(rows: readonly DeliveryRow[], names: ReadonlyMap<string, string>): Event[] {
  const nameOf = (id: string) => names.get(id) ?? null;
  return rows.map((r) => ({
    eventId: r.event_id,
    fixtureId: r.fixture_id,
    inningsId: r.innings_id,
    inningsOrdinal: r.innings_ordinal,
    sequenceNumber: r.sequence_number,
    revision: r.revision,
    overNumber: r.over_number,
    positionInOver: r.position_in_over,
    ballNumber: r.ball_number,
    strikerId: r.striker_id,
    strikerName: nameOf(r.striker_id),
    nonStrikerId: r.non_striker_id,
    nonStrikerName: nameOf(r.non_striker_id),
    bowlerId: r.bowler_id,
    bowlerName: nameOf(r.bowler_id),
    runs: {
      offBat: r.runs_off_bat,
      extras: r.runs_extras,
      total: r.runs_total,
      ...(r.runs_non_boundary === null ? {} : { nonBoundary: r.runs_non_boundary }),
    },
    extras: extrasOf(r),
    wickets: r.wickets.map((w) => ({
      kind: w.kind,
      playerOutId: w.playerOutId,
      playerOutName: nameOf(w.playerOutId),
      fielders: w.fielders.map((f) => ({
        participantId: f.participantId,
        name: nameOf(f.participantId),
        substitute: f.substitute,
      })),
    })),
  }));
}

/** Only the kinds of extra the delivery had, as submitted. */
export function extrasOf(r: DeliveryRow): Event["extras"] {
  const extras: Event["extras"] = {};
  if (r.extra_wides !== null) extras.wides = r.extra_wides;
  if (r.extra_no_balls !== null) extras.noBalls = r.extra_no_balls;
  if (r.extra_byes !== null) extras.byes = r.extra_byes;
  if (r.extra_leg_byes !== null) extras.legByes = r.extra_leg_byes;
  if (r.extra_penalty !== null) extras.penalty = r.extra_penalty;
  return extras;
}

/** The names the teams of each of the fixture's innings played under (readable CSV columns). */
export async function inningsTeams(sql: Sql, fixtureId: string): Promise<InningsTeams> {
  const rows = await sql<{ innings_id: string; batting: string | null; bowling: string | null }[]>`
    select i.innings_id,
           (select c ->> 'name' from jsonb_array_elements(f.competitors) c
            where c ->> 'competitorId' = i.batting_competitor_id) as batting,
           (select c ->> 'name' from jsonb_array_elements(f.competitors) c
            where c ->> 'competitorId' = i.bowling_competitor_id) as bowling
    from innings i join fixture f on f.fixture_id = i.fixture_id
    where i.fixture_id = ${fixtureId}`;
  return new Map(rows.map((r) => [r.innings_id, { batting: r.batting, bowling: r.bowling }]));
}
