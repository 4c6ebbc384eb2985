import type { AppDependencies } from "../http/app.js";
import type { EvaluationContext } from "../questions/evaluate.js";
import { loadVocabulary, type Vocabulary } from "../questions/vocabulary.js";
import { leaderboardReader } from "../read-api/leaderboards.js";
import { memoised, READ_FROM, readModels } from "../read-api/params.js";

/**
 * What evaluating needs: the read models, the vocabulary (memoised until the reference data
 * changes: it is read whole and indexed, so not on every question) and the leaderboard read.
 */
export function evaluationContext(deps: AppDependencies): () => Promise<EvaluationContext> {
  // One a service: the API's operation and the question page share its vocabulary load and leaderboard read.
  const kept = contexts.get(deps);
  if (kept) return kept;
  const context = newContext(deps);
  contexts.set(deps, context);
  return context;
}

const contexts = new WeakMap<AppDependencies, () => Promise<EvaluationContext>>();

function newContext(deps: AppDependencies): () => Promise<EvaluationContext> {
  const sql = readModels(deps);
  const memo = memoised(deps);
  const leaderboard = leaderboardReader(deps);
  // Questions arriving while it loads wait for the one load instead of each starting another.
  let loading: Promise<Vocabulary> | undefined;
  const load = () => {
    loading ??= loadVocabulary(sql()).finally(() => {
      loading = undefined;
    });
    return loading;
  };
  return async () => ({
    sql: sql(),
    vocabulary: await memo("question-vocabulary", load, READ_FROM.reference),
    leaderboard,
  });
}
