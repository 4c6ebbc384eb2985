import type { AppDependencies } from "../http/app.js";
import type { EvaluationContext } from "../questions/evaluate.js";
import { loadVocabulary } from "../questions/vocabulary.js";
import { leaderboardReader } from "../read-api/leaderboards.js";
import { memoised, READ_FROM, readModels } from "../read-api/params.js";

/**
 * What evaluating needs: the read models, the vocabulary (memoised until the reference data
 * changes: it is read whole and indexed, so not on every question) and the leaderboard read.
 */
export function evaluationContext(deps: AppDependencies): () => Promise<EvaluationContext> {
  const sql = readModels(deps);
  const memo = memoised(deps);
  const leaderboard = leaderboardReader(deps);
  return async () => ({
    sql: sql(),
    vocabulary: await memo("question-vocabulary", () => loadVocabulary(sql()), READ_FROM.reference),
    leaderboard,
  });
}
