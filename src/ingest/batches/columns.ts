/**
 * The columns of a tabular package (CSV, or each sheet of an XLSX): one delivery per row,
 * its package, fixture and innings context repeated on every row (docs/batches.md, "CSV and
 * XLSX packages"). Each column names the place in the package's JSON shape its value goes,
 * so a table is read into the same package the JSON encoding sends, and every fault found
 * there is traced back to a row and a column.
 */

/** Which object of the package a column's value belongs to; context columns repeat on every row. */
export type Level = "package" | "fixture" | "innings" | "event";
/** How a cell is read: as written, as an integer when it is one, as true or false when it is one. */
export type Kind = "text" | "integer" | "boolean";
export type Column = { name: string; level: Level; path: string; kind: Kind };

/** A reference's two columns: the name people use, and `<name>SourceId`. */
const reference = (level: Level, name: string, path: string, named: "name" | "sourceId"): Column => ({
  name: named === "name" ? name : `${name}SourceId`,
  level,
  path: named === "name" ? `${path}.context.name` : `${path}.sourceId`,
  kind: "text",
});
const references = (level: Level, name: string, path = name): Column[] => [
  reference(level, name, path, "name"),
  reference(level, name, path, "sourceId"),
];
const column = (level: Level, name: string, path: string, kind: Kind = "text"): Column => ({
  name,
  level,
  path,
  kind,
});

/** At most three fielders per row (the specification's CSV limit); one dismissal per row. */
const MAX_FIELDERS = 3;
const fielder = (n: number): Column[] => {
  const at = `wickets.0.fielders.${n - 1}`;
  return [
    ...references("event", `fielder${n}`, `${at}.participant`),
    column("event", `fielder${n}Substitute`, `${at}.substitute`, "boolean"),
  ];
};

export const COLUMNS: readonly Column[] = [
  column("package", "contractVersion", "contractVersion"),
  column("package", "packageId", "packageId"),
  ...references("package", "competition"),
  ...references("package", "season"),
  column("fixture", "fixtureSourceId", "sourceId"),
  column("fixture", "fixtureDate", "context.date"),
  ...references("fixture", "team1", "context.teams.0"),
  ...references("fixture", "team2", "context.teams.1"),
  ...references("fixture", "fixtureSeason", "season"),
  column("fixture", "proposalEndDate", "proposal.endDate"),
  column("fixture", "proposalMatchType", "proposal.matchType"),
  column("fixture", "proposalTeamType", "proposal.teamType"),
  column("fixture", "proposalGender", "proposal.gender"),
  column("fixture", "proposalBallsPerOver", "proposal.ballsPerOver", "integer"),
  column("fixture", "proposalResult", "proposal.outcome.result"),
  ...references("fixture", "proposalWinner", "proposal.outcome.winner"),
  column("fixture", "proposalSourceVersion", "proposal.sourceVersion"),
  column("fixture", "proposalSourceRevision", "proposal.sourceRevision", "integer"),
  column("innings", "inningsSourceId", "sourceId"),
  column("innings", "inningsOrdinal", "context.ordinal", "integer"),
  ...references("innings", "battingTeam", "context.battingTeam"),
  column("event", "eventId", "eventId"),
  column("event", "occurrenceSequence", "occurrenceSequence", "integer"),
  column("event", "overNumber", "overNumber", "integer"),
  column("event", "positionInOver", "positionInOver", "integer"),
  column("event", "ballLabel", "ballLabel"),
  ...references("event", "striker"),
  ...references("event", "nonStriker"),
  ...references("event", "bowler"),
  column("event", "runsOffBat", "runs.offBat", "integer"),
  column("event", "runsExtras", "runs.extras", "integer"),
  column("event", "runsTotal", "runs.total", "integer"),
  column("event", "runsNonBoundary", "runs.nonBoundary", "boolean"),
  column("event", "extraWides", "extras.wides", "integer"),
  column("event", "extraNoBalls", "extras.noBalls", "integer"),
  column("event", "extraByes", "extras.byes", "integer"),
  column("event", "extraLegByes", "extras.legByes", "integer"),
  column("event", "extraPenalty", "extras.penalty", "integer"),
  column("event", "wicketKind", "wickets.0.kind"),
  ...references("event", "playerOut", "wickets.0.playerOut"),
  ...Array.from({ length: MAX_FIELDERS }, (_, i) => fielder(i + 1)).flat(),
  column("event", "operation", "operation"),
  column("event", "correctsEventId", "correctsEventId"),
];

/** Columns by their name as a header may write it: any case, spaces around ignored. */
export const columnNamed = new Map(COLUMNS.map((c) => [c.name.toLowerCase(), c]));

/** A header naming what a row cannot hold: a fourth fielder, a second dismissal. */
export const BEYOND_LIMITS = [
  { pattern: new RegExp(`^fielder(?:[${MAX_FIELDERS + 1}-9]|\\d{2,})`, "i"), code: "CSV_TOO_MANY_FIELDERS" },
  { pattern: /^(?:wicketKind|playerOut)\d/i, code: "CSV_TOO_MANY_DISMISSALS" },
] as const;

/**
 * The column a path within an object of `level` comes from: the one at exactly that path, or
 * the first under it (a whole reference's fault is located at its name's column).
 */
export function columnAt(level: Level, path: string): Column | undefined {
  const own = COLUMNS.filter((c) => c.level === level);
  return own.find((c) => c.path === path) ?? own.find((c) => c.path.startsWith(`${path}.`));
}
