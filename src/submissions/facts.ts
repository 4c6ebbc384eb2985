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

/** The fixture a delivery belongs to, by its event id; undefined for none (or an id that is no UUID). */
export async function fixtureOfDelivery(sql: Sql, eventId: string): Promise<string | undefined> {
  if (!isUuid(eventId)) return undefined;
  const [row] = await sql<{ fixture_id: string }[]>`select fixture_id from delivery where event_id = ${eventId}::uuid`;
  return row?.fixture_id;
}
