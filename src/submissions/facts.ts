import { isUuid } from "../../streams/shared.js";
import type { Sql } from "../db/database.js";
import type { NamedIds, ReferenceFacts } from "./validate.js";

/**
 * What the checks of one request consult beside the fixture's stream, read from the read
 * models once. They may trail the log by a moment: an event id accepted in another fixture
 * that instant is still refused, by the store, when the submission is appended.
 */
export async function referenceFacts(sql: Sql, named: NamedIds): Promise<ReferenceFacts> {
  const eventIds = named.eventIds.filter((id) => isUuid(id));
  const [kinds, registered, accepted] = await Promise.all([
    sql<{ kind: string }[]>`select kind from dismissal_kind`,
    named.participantIds.length === 0
      ? []
      : sql<{ id: string }[]>`
          select participant_id as id from participant where participant_id = any(${named.participantIds})`,
    eventIds.length === 0
      ? []
      : sql<{ id: string }[]>`select event_id::text as id from delivery where event_id = any(${eventIds}::uuid[])`,
  ]);
  return {
    dismissalKinds: new Set(kinds.map((k) => k.kind)),
    registered: new Set(registered.map((r) => r.id)),
    accepted: new Set(accepted.map((r) => r.id)),
  };
}

/**
 * The fixture of a current delivery and the competition it is played in (null while the
 * fixture's read model trails); undefined for no such delivery, or an id that is no UUID.
 */
export async function deliveryFixture(
  sql: Sql,
  eventId: string,
): Promise<{ fixtureId: string; competitionId: string | null } | undefined> {
  if (!isUuid(eventId)) return undefined;
  const [row] = await sql<{ fixture_id: string; competition_id: string | null }[]>`
    select d.fixture_id, f.competition_id
    from delivery d left join fixture f on f.fixture_id = d.fixture_id
    where d.event_id = ${eventId}::uuid`;
  return row && { fixtureId: row.fixture_id, competitionId: row.competition_id };
}
