import type { Competition, Season } from "../../read-api/schemas/reference.js";
import { Layout } from "../layout.js";
import { leaderboardPage, seasonPage } from "../paths.js";
import { Table } from "../table.js";

/** A competition and its seasons, newest first. */
export function CompetitionPage({ competition, seasons }: { competition: Competition; seasons: readonly Season[] }) {
  return (
    <Layout title={competition.name}>
      <h1>{competition.name}</h1>
      {competition.alternativeNames.length > 0 ? (
        <p class="lede">Also known as {competition.alternativeNames.join(", ")}</p>
      ) : null}
      <p>
        Every season together:{" "}
        <a href={leaderboardPage({ type: "competition", id: competition.competitionId }, "most_runs")}>most runs</a>,{" "}
        <a href={leaderboardPage({ type: "competition", id: competition.competitionId }, "most_wickets")}>
          most wickets
        </a>{" "}
        and more.
      </p>
      <Table caption="Seasons" columns={["Season", "From", "To", "Fixtures"]}>
        <tbody>
          {seasons.map((s) => (
            <tr>
              <td>
                <a href={seasonPage(s.seasonId)}>{s.name}</a>
              </td>
              <td>{s.startDate ?? "–"}</td>
              <td>{s.endDate ?? "–"}</td>
              <td>{s.fixtureCount}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </Layout>
  );
}
