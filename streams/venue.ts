import { z } from "zod";
import { defineEvent, EventCatalogue, type EventOf } from "./catalogue.js";
import { streamId } from "./envelope.js";
import { id, name, sourceId } from "./shared.js";

export const venueStream = (venueId: string) => streamId("venue", venueId);

const city = z.string().trim().min(1).max(200).nullable();
const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);

export const VenueRegistered = defineEvent({
  type: "VenueRegistered",
  category: "venue",
  version: 1,
  schema: z.strictObject({
    venueId: id,
    name,
    city,
    latitude: latitude.nullable(),
    longitude: longitude.nullable(),
    sourceIds: z.array(sourceId),
  }),
});

/** Another spelling of the venue ("Wankhede Stadium" and "Wankhede Stadium, Mumbai"). */
export const VenueNameAdded = defineEvent({
  type: "VenueNameAdded",
  category: "venue",
  version: 1,
  schema: z.strictObject({ venueId: id, name }),
});

/**
 * An administrator's correction of the venue's name or city (both carried as they now
 * are). Coordinates found for the old ones no longer hold: the venue has none after it.
 */
export const VenueRenamed = defineEvent({
  type: "VenueRenamed",
  category: "venue",
  version: 1,
  schema: z.strictObject({ venueId: id, name, city }),
});

/**
 * Where the venue is (docs/weather.md, "Locating a venue"): as a geocoding lookup found it
 * (the text searched and the place it matched, so anyone can see what the coordinates rest
 * on), or as an administrator set it.
 */
export const VenueLocated = defineEvent({
  type: "VenueLocated",
  category: "venue",
  version: 1,
  schema: z.strictObject({
    venueId: id,
    latitude,
    longitude,
    source: z.discriminatedUnion("provider", [
      z.strictObject({
        provider: z.literal("open-meteo-geocoding"),
        query: name,
        placeId: z.number().int(),
        placeName: z.string().min(1).max(200),
        country: z.string().min(1).max(200).nullable(),
      }),
      z.strictObject({ provider: z.literal("administrator") }),
    ]),
  }),
});

export const venueEvents = [VenueRegistered, VenueNameAdded, VenueRenamed, VenueLocated] as const;
export type VenueEvent = EventOf<(typeof venueEvents)[number]>;
export const venueCatalogue = new EventCatalogue(venueEvents);
