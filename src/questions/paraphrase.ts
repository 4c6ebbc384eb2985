import type { Metric } from "../statistics/leaderboards.js";
import type { CompetitionReference, FigurePath, QueryDefinition, SeasonReference } from "./definition.js";

/** Definitions in one line of words: "most runs, Indian Premier League 2016". */
export const METRIC_WORDS: Record<Metric, string> = {
  most_runs: "most runs",
  most_wickets: "most wickets",
  most_fours: "most fours",
  most_sixes: "most sixes",
  highest_batting_average: "highest batting average",
  highest_strike_rate: "highest strike rate",
  best_bowling_average: "best bowling average",
  best_economy_rate: "best economy rate",
  best_bowling_strike_rate: "best bowling strike rate",
};

/** `batting.strikeRate` as "batting strike rate", `matches` as "matches". */
export const figureWords = (path: FigurePath) =>
  path.replace(".", " ").replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);

/** A competition reference as given: its name, or its id. */
export const competitionWords = (ref: CompetitionReference) => ("name" in ref ? ref.name : ref.competitionId);

function seasonWords(ref: SeasonReference): string {
  if ("seasonId" in ref) return `season ${ref.seasonId}`;
  const competition = ref.competition ? `${competitionWords(ref.competition)} ` : "";
  if ("name" in ref) return `${competition}${ref.name}`;
  return `${competition}season ${ref.ordinal > 0 ? ref.ordinal : `${-ref.ordinal} from the latest`}`;
}

/** A definition as given, names as written; the evaluation words an answered one from the data. */
export function describeDefinition(definition: QueryDefinition): string {
  const scope = definition.scope;
  const where =
    scope.type === "career"
      ? "career"
      : scope.type === "competition"
        ? `${competitionWords(scope.competition)}, all seasons`
        : seasonWords(scope.season);
  if (definition.type === "leaderboard") return `${METRIC_WORDS[definition.metric]}, ${where}`;
  const who = "name" in definition.participant ? definition.participant.name : definition.participant.participantId;
  return `${who}: ${definition.figure ? figureWords(definition.figure) : "every figure"}, ${where}`;
}
