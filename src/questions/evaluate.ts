import type { Sql } from "../db/database.js";
import type { LeaderboardRead } from "../read-api/leaderboards.js";
import { aggregateStatisticId, participantAggregates } from "../read-api/queries/player-statistics.js";
import type { ParticipantAggregate } from "../read-api/schemas/player-statistics.js";
import type { AggregateDefinition, FigurePath, LeaderboardDefinition, QueryDefinition } from "./definition.js";
import { LEADERBOARD_LIMIT } from "./definition.js";
import { figureWords, METRIC_WORDS } from "./paraphrase.js";
import {
  type Ambiguity,
  type Resolution,
  resolveCompetition,
  resolveParticipant,
  resolveSeason,
  type ScopeKey,
  type Unmatched,
} from "./resolve.js";
import { seasonLabel, type Vocabulary } from "./vocabulary.js";

/**
 * Evaluating a definition: its entities resolved to ids, then the published read it names,
 * whose document comes back unchanged (`resource`) with the path that serves it (`endpoint`)
 * and the statistic ids it used. Outcomes: `answered`, `no_match` (what matched nothing) and
 * `ambiguous` (the candidates for each name that matched several).
 */
export type Answered = {
  outcome: "answered";
  /** The definition with every entity by id: evaluating it again gives the same answer. */
  definition: QueryDefinition;
  /** A one-line reading of it: "most runs, Indian Premier League 2016". */
  paraphrase: string;
  endpoint: string;
  statisticIds: string[];
  /** The one figure asked for, when one was. */
  figure: { path: FigurePath; value: unknown } | null;
  resource: unknown;
};
export type Evaluation =
  | Answered
  | { outcome: "no_match"; unmatched: Unmatched[] }
  | { outcome: "ambiguous"; ambiguities: Ambiguity[] };

export type EvaluationContext = { sql: Sql; vocabulary: Vocabulary; leaderboard: LeaderboardRead };

export function evaluate(context: EvaluationContext, definition: QueryDefinition): Promise<Evaluation> {
  return definition.type === "leaderboard" ? leaderboard(context, definition) : aggregate(context, definition);
}

type ScopeOf<D extends QueryDefinition> = { label: string; definition: D["scope"] };
type TableScope = ScopeOf<LeaderboardDefinition> & { key: { type: "season" | "competition"; id: string } };
type AnyScope = ScopeOf<AggregateDefinition> & { key: ScopeKey };

/** A season or competition a definition names, by id, with its label; problems go to `problems`. */
function resolveTableScope(
  vocabulary: Vocabulary,
  scope: LeaderboardDefinition["scope"],
  problems: Problems,
): TableScope | undefined {
  if (scope.type === "competition") {
    const competition = problems.take(resolveCompetition(vocabulary, scope.competition));
    if (!competition) return undefined;
    return {
      key: { type: "competition", id: competition.id },
      label: `${competition.name}, all seasons`,
      definition: { type: "competition", competition: { competitionId: competition.id } },
    };
  }
  const season = problems.take(resolveSeason(vocabulary, scope.season));
  if (!season) return undefined;
  return {
    key: { type: "season", id: season.id },
    label: seasonLabel(vocabulary, season),
    definition: { type: "season", season: { seasonId: season.id } },
  };
}

const resolveScope = (
  vocabulary: Vocabulary,
  scope: AggregateDefinition["scope"],
  problems: Problems,
): AnyScope | undefined =>
  scope.type === "career"
    ? { key: scope, label: "career", definition: scope }
    : resolveTableScope(vocabulary, scope, problems);

/** Every name that matched nothing or several, gathered so one answer reports them all. */
class Problems {
  readonly unmatched: Unmatched[] = [];
  readonly ambiguities: Ambiguity[] = [];
  take<T>(resolution: Resolution<T>): T | undefined {
    if ("found" in resolution) return resolution.found;
    if ("unmatched" in resolution) this.unmatched.push(resolution.unmatched);
    else this.ambiguities.push(resolution.ambiguity);
    return undefined;
  }
  outcome(): Evaluation {
    return this.unmatched.length > 0
      ? { outcome: "no_match", unmatched: this.unmatched }
      : { outcome: "ambiguous", ambiguities: this.ambiguities };
  }
}

async function leaderboard(context: EvaluationContext, definition: LeaderboardDefinition): Promise<Evaluation> {
  const problems = new Problems();
  const scope = resolveTableScope(context.vocabulary, definition.scope, problems);
  if (!scope) return problems.outcome();
  const limit = definition.limit ?? LEADERBOARD_LIMIT.default;
  const { body } = await context.leaderboard({
    scope: scope.key.type,
    scopeId: scope.key.id,
    metric: definition.metric,
    limit,
  });
  const idParameter = scope.key.type === "season" ? "seasonId" : "competitionId";
  const query = new URLSearchParams({ scope: scope.key.type, [idParameter]: scope.key.id, metric: definition.metric });
  query.set("limit", String(limit));
  return {
    outcome: "answered",
    definition: { ...definition, scope: scope.definition, limit },
    paraphrase: `${METRIC_WORDS[definition.metric]}, ${scope.label}${limit === LEADERBOARD_LIMIT.default ? "" : `, top ${limit}`}`,
    endpoint: `/api/v1/statistics/leaderboards?${query}`,
    statisticIds: [definition.metric],
    figure: null,
    resource: JSON.parse(body),
  };
}

async function aggregate(context: EvaluationContext, definition: AggregateDefinition): Promise<Evaluation> {
  const { sql, vocabulary } = context;
  const problems = new Problems();
  const scope = resolveScope(vocabulary, definition.scope, problems);
  // Without the scope the player's name can still be checked, not narrowed by it.
  const participant = problems.take(
    await resolveParticipant(sql, vocabulary, definition.participant, scope?.key ?? { type: "career" }),
  );
  if (!scope || !participant) return problems.outcome();
  const key = scope.key;
  const [found] = await participantAggregates(sql, participant, {
    type: key.type,
    id: key.type === "career" ? undefined : key.id,
  });
  const statisticId = aggregateStatisticId(key.type, key.type === "career" ? "" : key.id);
  if (!found)
    return {
      outcome: "no_match",
      unmatched: [
        {
          entity: "statistic",
          text: statisticId,
          message: `${participant.name} has no figures in ${key.type === "career" ? "any match" : scope.label}`,
        },
      ],
    };
  const figure = definition.figure ? { path: definition.figure, value: figureOf(found, definition.figure) } : null;
  return {
    outcome: "answered",
    definition: { ...definition, participant: { participantId: participant.participantId }, scope: scope.definition },
    paraphrase: `${participant.name}: ${definition.figure ? figureWords(definition.figure) : "every figure"}, ${scope.label}`,
    endpoint: `/api/v1/participants/${encodeURIComponent(participant.participantId)}/statistics/${encodeURIComponent(statisticId)}`,
    statisticIds: [statisticId],
    figure,
    resource: { data: found },
  };
}

function figureOf(aggregate: ParticipantAggregate, path: FigurePath): unknown {
  let value: unknown = aggregate;
  for (const part of path.split(".")) value = (value as Record<string, unknown>)[part];
  if (value === undefined) throw new Error(`the aggregate has no ${path}`);
  return value;
}
