import type { LeaderboardRow } from "../../read-api/schemas/player-statistics.js";
import { METRICS, type Metric } from "../../statistics/leaderboards.js";
import { Layout } from "../layout.js";
import { type BoardScope, leaderboardPage, participantPage, scopePage } from "../paths.js";
import { Table } from "../table.js";

export type Leaderboard = {
  metric: Metric;
  description: string;
  qualification: { description: string };
  scope: { type: string; id: string; name: string | null; competition?: { name: string | null } | null };
  data: LeaderboardRow[];
};

const LABELS: Record<Metric, string> = {
  most_runs: "Most runs",
  most_wickets: "Most wickets",
  most_fours: "Most fours",
  most_sixes: "Most sixes",
  highest_batting_average: "Batting average",
  highest_strike_rate: "Strike rate",
  best_bowling_average: "Bowling average",
  best_economy_rate: "Economy rate",
  best_bowling_strike_rate: "Bowling strike rate",
};

/** A season's or a competition's leaderboard of one metric, the others a link away, with the rule that qualifies a player. */
export function LeaderboardPage({ board, scope }: { board: Leaderboard; scope: BoardScope }) {
  const scopeName = `${board.scope.competition?.name ?? ""} ${board.scope.name ?? ""}`.trim();
  return (
    <Layout title={`${LABELS[board.metric]}, ${scopeName}`}>
      <p>
        <a href={scopePage(scope)}>{scopeName}</a>
      </p>
      <h1>
        {LABELS[board.metric]}, {scopeName}
      </h1>
      <nav aria-label="Leaderboards">
        <ul class="cards">
          {METRICS.map((metric) => (
            <li>
              {metric === board.metric ? (
                <strong aria-current="page">{LABELS[metric]}</strong>
              ) : (
                <a href={leaderboardPage(scope, metric)}>{LABELS[metric]}</a>
              )}
            </li>
          ))}
        </ul>
      </nav>
      <p class="lede">
        {board.description}. Qualification: {board.qualification.description}
      </p>
      {board.data.length === 0 ? (
        <p class="empty">Nobody qualifies yet.</p>
      ) : (
        <Table caption={LABELS[board.metric]} columns={["Rank", { text: "Player" }, LABELS[board.metric]]}>
          <tbody>
            {board.data.map((row) => (
              <tr>
                <td>{row.rank}</td>
                <th scope="row" class="text">
                  <a href={participantPage(row.participantId)}>{row.participantName}</a>
                </th>
                <td>{row.value}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Layout>
  );
}
