import type { Sql } from "../db/database.js";
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  Position,
  RecordedEvent,
} from "../event-store/port.js";
import { isSealed, seal, unseal } from "./cipher.js";
import { ERASING_TYPES, mapPersonal, ownerOf, PERSONAL_FIELDS, placeOf } from "./fields.js";
import { destroyKeys, findKeys, provideKeys } from "./keys.js";

/**
 * The event store as every writer and reader uses it, over either adapter: personal fields
 * are sealed under their account's key on the way in and opened on the way out, so commands
 * fold and projectors apply plain values without knowing. Appending an erasing event (the
 * tombstone) destroys the key; from then on the account's personal fields read as null, in
 * a replay, a rebuild or a command alike. Plain text written before sealing existed passes
 * through unchanged (`sealExistingEvents` rewrites it at start).
 */
export class PersonalDataStore implements EventStore {
  readonly adapter: EventStore["adapter"];

  constructor(
    private readonly events: EventStore,
    private readonly sql: Sql,
  ) {
    this.adapter = events.adapter;
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const result = await this.events.append(streamId, await this.sealed(streamId, events), expected);
    if (events.some((e) => ERASING_TYPES.includes(e.type))) await destroyKeys(this.sql, [ownerOf(streamId)]);
    return result;
  }

  async readStream(streamId: string, options?: { fromRevision?: number }): Promise<RecordedEvent[]> {
    return this.opened(await this.events.readStream(streamId, options));
  }

  async readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    return this.opened(await this.events.readAll(after, limit));
  }

  head(): Promise<Position> {
    return this.events.head();
  }

  distance(after: Position, upTo: Position): Promise<number> {
    return this.events.distance(after, upTo);
  }

  onAppend(listener: () => void): () => void {
    return this.events.onAppend(listener);
  }

  close(): Promise<void> {
    return this.events.close();
  }

  private async sealed(streamId: string, events: readonly NewEvent[]): Promise<readonly NewEvent[]> {
    if (!events.some((e) => PERSONAL_FIELDS.has(e.type))) return events;
    const owner = ownerOf(streamId);
    const key = (await provideKeys(this.sql, [owner])).get(owner) as Buffer;
    return events.map((e) => ({
      ...e,
      data: mapPersonal(e.type, e.data, (value, field) => seal(key, value, placeOf(e.id, field))),
    }));
  }

  /** The events with their personal fields opened: null where the account's key is gone. */
  private async opened(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const personal = events.filter((e) => PERSONAL_FIELDS.has(e.type));
    if (personal.length === 0) return events;
    const keys = await findKeys(
      this.sql,
      personal.map((e) => ownerOf(e.streamId)),
    );
    return events.map((e) => {
      if (!PERSONAL_FIELDS.has(e.type)) return e;
      const key = keys.get(ownerOf(e.streamId));
      const open = (value: unknown, field: string) =>
        isSealed(value) ? (key ? unseal(key, value, placeOf(e.id, field)) : null) : value;
      return { ...e, data: mapPersonal(e.type, e.data, open) };
    });
  }
}
