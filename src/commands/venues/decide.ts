import type { EventData } from "../../../streams/types.js";
import type { VenueEvent, VenueLocated } from "../../../streams/venue.js";
import { evolveVenue, initialVenueState, type VenueState } from "../../../streams/venue-state.js";
import { DomainError } from "../errors.js";
import type { Decider } from "../handle.js";

/** No venue has this id. */
export class VenueNotFound extends DomainError {
  readonly code = "NOT_FOUND";
  constructor(readonly venueId: string) {
    super("No such venue");
  }
}

/** New labels for a venue; an absent one stays as it is. */
export type RenameVenue = { type: "RenameVenue"; venueId: string; name?: string; city?: string | null };

/** Coordinates a lookup found for the venue under the name and city it was looked up by. */
export type LocateVenue = {
  type: "LocateVenue";
  lookedUpAs: { name: string; city: string | null };
} & EventData<typeof VenueLocated>;

export type VenueCommand = RenameVenue | LocateVenue;

/**
 * Requirements (docs/weather.md, "Locating a venue"):
 * - only a registered venue is renamed (404 otherwise); labels that change nothing write
 *   nothing, new ones write one VenueRenamed, which clears its coordinates;
 * - a location is kept only while the venue still has the name and city it was looked up
 *   by: one found for labels since corrected is dropped, not stored against the new ones;
 *   a location equal to the stored one writes nothing (two lookups racing store one).
 */
export const venueDecider: Decider<VenueCommand, VenueState, VenueEvent> = {
  initialState: initialVenueState,
  evolve: evolveVenue,
  decide: (command, venue) => {
    if (command.type === "RenameVenue") {
      if (!venue) throw new VenueNotFound(command.venueId);
      const name = command.name ?? venue.name;
      const city = command.city === undefined ? venue.city : command.city;
      if (name === venue.name && city === venue.city) return [];
      return [{ type: "VenueRenamed", data: { venueId: venue.venueId, name, city } }];
    }
    const { type: _, lookedUpAs, ...located } = command;
    if (!venue || venue.name !== lookedUpAs.name || venue.city !== lookedUpAs.city) return [];
    if (venue.latitude === located.latitude && venue.longitude === located.longitude) return [];
    return [{ type: "VenueLocated", data: located }];
  },
};
