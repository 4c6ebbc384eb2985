import type { Settings } from "../config.js";
import type { Sql } from "../db/database.js";
import { PersonalDataStore } from "../personal-data/store.js";
import { KurrentDbEventStore } from "./kurrentdb.js";
import type { EventStore } from "./port.js";
import { PostgresEventStore } from "./postgres.js";

/**
 * Events go to KurrentDB when EVENTSTORE_URL is set, else to the events table of the
 * database; either way personal fields are sealed under keys kept in the database.
 */
export const openEventStore = (settings: Pick<Settings, "eventStoreUrl">, sql: Sql): EventStore =>
  new PersonalDataStore(
    settings.eventStoreUrl ? new KurrentDbEventStore(settings.eventStoreUrl) : new PostgresEventStore(sql),
    sql,
  );
