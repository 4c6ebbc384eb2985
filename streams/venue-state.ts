import { unreachable } from "./unreachable.js";
import type { VenueEvent } from "./venue.js";

/** A venue as its stream says: names, city, and coordinates while they hold. */
export type Venue = {
  venueId: string;
  name: string;
  city: string | null;
  /** Every other name it was met or known under, in the order they came. */
  otherNames: string[];
  latitude: number | null;
  longitude: number | null;
  sourceIds: string[];
};

/** null until the venue is registered. */
export type VenueState = Venue | null;

export const initialVenueState = (): VenueState => null;

const withName = (names: readonly string[], name: string) => (names.includes(name) ? [...names] : [...names, name]);

/** Folds one venue event into the state; pure. */
export function evolveVenue(state: VenueState, event: VenueEvent): VenueState {
  if (event.type === "VenueRegistered") return state ?? { ...event.data, otherNames: [] };
  if (!state) return state;
  switch (event.type) {
    case "VenueNameAdded":
      return event.data.name === state.name
        ? state
        : { ...state, otherNames: withName(state.otherNames, event.data.name) };
    case "VenueRenamed": {
      const { name, city } = event.data;
      const otherNames = withName(state.otherNames, state.name).filter((other) => other !== name);
      return { ...state, name, city, otherNames, latitude: null, longitude: null };
    }
    case "VenueLocated":
      return { ...state, latitude: event.data.latitude, longitude: event.data.longitude };
    default:
      return unreachable(event);
  }
}
