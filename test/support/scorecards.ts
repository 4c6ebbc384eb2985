import { readFileSync } from "node:fs";
import path from "node:path";
import { mapMatch } from "../../src/ingest/cricsheet/map.js";
import { cricsheetMatchSchema } from "../../src/ingest/cricsheet/schema.js";
import { inningsCard } from "../../src/statistics/innings-card.js";
import { cricsheetFile } from "./cricsheet.js";

/** A real Cricsheet match mapped into our vocabulary. */
export const fixtureOf = (relative: string) =>
  mapMatch(
    path.basename(relative, ".json"),
    cricsheetMatchSchema.parse(JSON.parse(readFileSync(cricsheetFile(relative), "utf8"))),
  );

/** Scorecards of a real Cricsheet match, computed by the statistics engine. */
export function cardsOf(relative: string) {
  const match = fixtureOf(relative);
  const names = new Map(match.participants.map((p) => [p.id, p.name]));
  const name = (id: string) => names.get(id) ?? id;
  const { fixture } = match;
  return fixture.innings.map((innings) =>
    inningsCard(
      innings,
      fixture.deliveries.filter((d) => d.inningsId === innings.inningsId),
      fixture.scheduled.ballsPerOver,
      fixture.squads.find((s) => s.competitorId === innings.battingCompetitorId)?.participantIds ?? [],
      name,
    ),
  );
}
