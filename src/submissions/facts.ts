import { fixtureCatalogue, fixtureStream } from "../../streams/fixture.js";
import { evolveFixture, type FixtureState, initialFixtureState } from "../../streams/fixture-state.js";
import { loadStream } from "../commands/handle.js";
import type { Sql } from "../db/database.js";
import type { EventStore } from "../event-store/port.js";
import { type LedgerFacts, namedIds } from "./validate.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The fixture as its own stream stands: the one source that is never behind. */
export async function loadFixture(store: EventStore, fixtureId: string): Promise<FixtureState> {
  const fold = { initialState: initialFixtureState, evolve: evolveFixture };
  return (await loadStream(store, fixtureCatalogue, fixtureStream(fixtureId), fold)).state;
}

/**
 * What the checks of one request consult. The fixture comes from its stream; the rest from
 * read models, which may trail the log by a moment: an event id accepted in another fixture
 * that instant is still refused, by the store, when the submission is appended.
 */
export async function ledgerFacts(
  store: EventStore,
  sql: Sql,
  body: unknown,
  fixture?: FixtureState,
): Promise<LedgerFacts> {
  const named = namedIds(body);
  const eventIds = named.eventIds.filter((id) => UUID.test(id));
  const [state, kinds, registered, accepted] = await Promise.all([
    fixture ?? (named.fixtureId ? loadFixture(store, named.fixtureId) : null),
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
    fixture: state,
    dismissalKinds: new Set(kinds.map((k) => k.kind)),
    registered: new Set(registered.map((r) => r.id)),
    accepted: new Set(accepted.map((r) => r.id)),
  };
}
