import { z } from "@hono/zod-openapi";
import { integerParam } from "../http/pagination.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import type { IdFilterValue } from "./misplaced-ids.js";
import { idFilter } from "./params.js";

/** The filters of the events list and both exports (the specification's event filters). */
export const eventFilters = {
  inningsId: idFilter("Only deliveries of this innings.", SAMPLE.inningsId),
  competitorId: idFilter("Only deliveries of the innings this competitor batted.", SAMPLE.competitorId),
  participantId: idFilter(
    "Only deliveries this participant took part in: striker, non-striker, bowler, player out or a named fielder.",
    SAMPLE.participantId,
  ),
  overNumber: integerParam(
    0,
    32767,
    "Only deliveries of this zero-based over (0 to 32767).",
    SAMPLE.overNumber,
  ).optional(),
  wicketKind: z.string().min(1).max(60).optional().openapi({
    description: "Only deliveries with a wicket of this kind (case-insensitive), e.g. `caught`.",
    example: SAMPLE.wicketKind,
  }),
};

/** The id filters among the event filters, for refuseMisplacedIds. */
export const eventIdFilters = (q: { inningsId?: string; competitorId?: string; participantId?: string }) =>
  ({
    inningsId: { kind: "innings", id: q.inningsId },
    competitorId: { kind: "competitor", id: q.competitorId },
    participantId: { kind: "participant", id: q.participantId },
  }) satisfies Record<string, IdFilterValue>;
