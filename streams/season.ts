import { z } from "zod";
import { defineEvent, type EventOf } from "./catalogue.js";
import { streamId } from "./envelope.js";
import { id } from "./shared.js";

export const seasonStream = (seasonId: string) => streamId("season", seasonId);

/** A season of one competition. `label` is the source's own label, e.g. Cricsheet's "2007/08" for IPL 2008. */
export const SeasonRegistered = defineEvent({
  type: "SeasonRegistered",
  category: "season",
  version: 1,
  schema: z.strictObject({ seasonId: id, competitionId: id, label: z.string().trim().min(1).max(40) }),
});

export const seasonEvents = [SeasonRegistered] as const;
export type SeasonEvent = EventOf<(typeof seasonEvents)[number]>;
