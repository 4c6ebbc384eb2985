import { cricsheetIds } from "./cricsheet/ids.js";

/**
 * The ids the reference's examples use: real ones, of the sample matches the embedded
 * default loads on its first start (samples/cricsheet/), derived as the importer derives
 * them. So every "Try it out" of a public read in /docs succeeds with its defaults on a
 * fresh server. The match: the IPL 2016 final, Sunrisers Hyderabad v Royal Challengers
 * Bangalore (Cricsheet 981019); the player: V Kohli (register id ba607b88), bowled by BB
 * Sran in the 13th over of the second innings.
 */
const MATCH = "981019";
const competitionId = cricsheetIds.competition("male", "Indian Premier League");
const participantId = cricsheetIds.participant("ba607b88");
const seasonId = cricsheetIds.season(competitionId, "2016");

export const SAMPLE = {
  competitionId,
  seasonId,
  competitorId: cricsheetIds.team("male", "club", "Royal Challengers Bengaluru"),
  participantId,
  bowlerId: cricsheetIds.participant("d8b2f218"),
  venueId: cricsheetIds.venue("m chinnaswamy stadium"),
  fixtureId: cricsheetIds.fixture(MATCH),
  inningsId: cricsheetIds.innings(MATCH, 1),
  /** Kohli's dismissal: over 12 (0-based), bowled. */
  eventId: cricsheetIds.delivery(MATCH, 1, 81),
  overNumber: 12,
  wicketKind: "bowled",
  batterStatisticId: `innings-1-batter-${participantId}`,
  participantStatisticId: `season-${seasonId}`,
  startDateFrom: "2016-04-01",
  startDateTo: "2016-05-31",
} as const;
