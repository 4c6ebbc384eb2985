import { venueCatalogue, venueStream } from "../../../streams/venue.js";
import type { Venue } from "../../../streams/venue-state.js";
import type { EventStore } from "../../event-store/port.js";
import { type CommandContext, type HandleResult, handleCommand, loadStream } from "../handle.js";
import { type ChangeVenue, type LocateVenue, VenueNotFound, venueDecider } from "./decide.js";

/** An administrator's change of the venue; the answer is the venue as it is after the command. */
export async function changeVenue(
  store: EventStore,
  command: Omit<ChangeVenue, "type">,
  context: CommandContext,
): Promise<{ outcome: HandleResult; venue: Venue }> {
  const stream = venueStream(command.venueId);
  const outcome = await handleCommand(
    store,
    venueCatalogue,
    stream,
    venueDecider,
    { type: "ChangeVenue", ...command },
    context,
  );
  const { state } = await loadStream(store, venueCatalogue, stream, venueDecider);
  if (!state) throw new VenueNotFound(command.venueId);
  return { outcome, venue: state };
}

/** Keeps a location found for the venue, when it still has the labels it was found under. */
export const locateVenue = (store: EventStore, command: Omit<LocateVenue, "type">, context: CommandContext) =>
  handleCommand(
    store,
    venueCatalogue,
    venueStream(command.venueId),
    venueDecider,
    { type: "LocateVenue", ...command },
    context,
  );
