import { z } from "zod";
import { defineEvent, type EventOf } from "./catalogue.js";
import { streamId } from "./envelope.js";
import { id, name, sourceId } from "./shared.js";

/** Teams are the competitors of a fixture. */
export const teamStream = (teamId: string) => streamId("team", teamId);

export const TeamRegistered = defineEvent({
  type: "TeamRegistered",
  category: "team",
  version: 1,
  schema: z.strictObject({
    teamId: id,
    name,
    teamType: z.enum(["club", "international"]),
    gender: z.enum(["male", "female"]),
    sourceIds: z.array(sourceId),
  }),
});

/** A name the team has played under (Delhi Daredevils became Delhi Capitals). */
export const TeamNameAdded = defineEvent({
  type: "TeamNameAdded",
  category: "team",
  version: 1,
  schema: z.strictObject({ teamId: id, name }),
});

export const teamEvents = [TeamRegistered, TeamNameAdded] as const;
export type TeamEvent = EventOf<(typeof teamEvents)[number]>;
