import { z } from "zod";
import { defineEvent, type EventOf } from "./catalogue.js";
import { streamId } from "./envelope.js";
import { id, name, sourceId } from "./shared.js";

/** Players. Identified by source ids (the Cricsheet register id), never by name. */
export const participantStream = (participantId: string) => streamId("participant", participantId);

export const ParticipantRegistered = defineEvent({
  type: "ParticipantRegistered",
  category: "participant",
  version: 1,
  schema: z.strictObject({ participantId: id, name, sourceIds: z.array(sourceId) }),
});

/** Another name the same person appears under ("NA Saini" and "Navdeep Saini"). */
export const ParticipantNameAdded = defineEvent({
  type: "ParticipantNameAdded",
  category: "participant",
  version: 1,
  schema: z.strictObject({ participantId: id, name }),
});

export const participantEvents = [ParticipantRegistered, ParticipantNameAdded] as const;
export type ParticipantEvent = EventOf<(typeof participantEvents)[number]>;
