import type { Settings } from "../config.js";
import type { Sql } from "../db/database.js";
import { KurrentDbEventStore } from "./kurrentdb.js";
import type { EventStore } from "./port.js";
import { PostgresEventStore } from "./postgres.js";

/** Events go to KurrentDB when EVENTSTORE_URL is set, else to the events table of the database. */
export const openEventStore = (settings: Pick<Settings, "eventStoreUrl">, sql: Sql): EventStore =>
  settings.eventStoreUrl ? new KurrentDbEventStore(settings.eventStoreUrl) : new PostgresEventStore(sql);
