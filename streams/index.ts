import { accountEvents } from "./account.js";
import { batchEvents } from "./batch.js";
import { EventCatalogue } from "./catalogue.js";
import { competitionEvents } from "./competition.js";
import { consumerEvents } from "./consumer.js";
import { fixtureEvents } from "./fixture.js";
import { participantEvents } from "./participant.js";
import { releaseEvents } from "./release.js";
import { seasonEvents } from "./season.js";
import { teamEvents } from "./team.js";
import { venueEvents } from "./venue.js";
import { vocabularyEvents } from "./vocabulary.js";

/** Every event the service writes. */
export const catalogue = new EventCatalogue([
  ...competitionEvents,
  ...seasonEvents,
  ...teamEvents,
  ...participantEvents,
  ...venueEvents,
  ...vocabularyEvents,
  ...fixtureEvents,
  ...accountEvents,
  ...consumerEvents,
  ...batchEvents,
  ...releaseEvents,
]);

/** Any event of the service, as the catalogue types it. */
export type CatalogueEvent = ReturnType<typeof catalogue.event>;
