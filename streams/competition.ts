import { z } from "zod";
import { defineEvent, type EventOf } from "./catalogue.js";
import { streamId } from "./envelope.js";
import { id, name, sourceId } from "./shared.js";

export const competitionStream = (competitionId: string) => streamId("competition", competitionId);

export const CompetitionRegistered = defineEvent({
  type: "CompetitionRegistered",
  category: "competition",
  version: 1,
  schema: z.strictObject({ competitionId: id, name, sourceIds: z.array(sourceId) }),
});

/** Another spelling the competition is known by (Cricsheet spells the T20 World Cup three ways). */
export const CompetitionNameAdded = defineEvent({
  type: "CompetitionNameAdded",
  category: "competition",
  version: 1,
  schema: z.strictObject({ competitionId: id, name }),
});

export const competitionEvents = [CompetitionRegistered, CompetitionNameAdded] as const;
export type CompetitionEvent = EventOf<(typeof competitionEvents)[number]>;
