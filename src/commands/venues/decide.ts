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

/** An administrator's change: new labels (an absent one stays as it is), coordinates set by hand. */
export type ChangeVenue = {
  type: "ChangeVenue";
  venueId: string;
  name?: string;
  city?: string | null;
  location?: { latitude: number; longitude: number };
};

/** Coordinates a lookup found for the venue under the name and city it was looked up by. */
export type LocateVenue = {
  type: "LocateVenue";
  lookedUpAs: { name: string; city: string | null };
} & EventData<typeof VenueLocated>;

export type VenueCommand = ChangeVenue | LocateVenue;

/**
 * Requirements (docs/weather.md, "Locating a venue"):
 * - only a registered venue is changed (404 otherwise); labels that change nothing write
 *   nothing, new ones write one VenueRenamed, which clears its coordinates; coordinates an
 *   administrator gives are kept (after the rename, when both come at once) unless they are
 *   the venue's already;
 * - a location is kept only while the venue still has the name and city it was looked up
 *   by: one found for labels since corrected is dropped, not stored against the new ones;
 *   a location equal to the stored one writes nothing (two lookups racing store one).
 */
export const venueDecider: Decider<VenueCommand, VenueState, VenueEvent> = {
  initialState: initialVenueState,
  evolve: evolveVenue,
  decide: (command, venue) => {
    if (command.type === "ChangeVenue") {
      if (!venue) throw new VenueNotFound(command.venueId);
      const { venueId } = venue;
      const name = command.name ?? venue.name;
      const city = command.city === undefined ? venue.city : command.city;
      const renamed = name !== venue.name || city !== venue.city;
      const { location } = command;
      const moved =
        location && (renamed || location.latitude !== venue.latitude || location.longitude !== venue.longitude);
      return [
        ...(renamed ? [{ type: "VenueRenamed" as const, data: { venueId, name, city } }] : []),
        ...(moved
          ? [
              {
                type: "VenueLocated" as const,
                data: { venueId, ...location, source: { provider: "administrator" as const } },
              },
            ]
          : []),
      ];
    }
    const { type: _, lookedUpAs, ...located } = command;
    if (!venue || venue.name !== lookedUpAs.name || venue.city !== lookedUpAs.city) return [];
    if (venue.latitude === located.latitude && venue.longitude === located.longitude) return [];
    return [{ type: "VenueLocated", data: located }];
  },
};
