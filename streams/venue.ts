import { z } from "zod";
import { defineEvent, type EventOf } from "./catalogue.js";
import { streamId } from "./envelope.js";
import { id, name, sourceId } from "./shared.js";

export const venueStream = (venueId: string) => streamId("venue", venueId);

export const VenueRegistered = defineEvent({
  type: "VenueRegistered",
  category: "venue",
  version: 1,
  schema: z.strictObject({
    venueId: id,
    name,
    city: z.string().trim().min(1).max(200).nullable(),
    latitude: z.number().min(-90).max(90).nullable(),
    longitude: z.number().min(-180).max(180).nullable(),
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

export const venueEvents = [VenueRegistered, VenueNameAdded] as const;
export type VenueEvent = EventOf<(typeof venueEvents)[number]>;
