import type { Fixture } from "../../read-api/schemas/fixture.js";
import type { Season } from "../../read-api/schemas/reference.js";
import { Layout } from "../layout.js";
import { competitionPage, fixturePage, leaderboardPage } from "../paths.js";
import { resultOf } from "../results.js";
import { Table } from "../table.js";

const teams = (f: Fixture) => f.competitors.map((c) => c.name ?? "Unknown team").join(" v ");

/** A season's fixtures by date, with each one's result. */
export function SeasonPage({ season, fixtures }: { season: Season; fixtures: readonly Fixture[] }) {
  const title = `${season.competition.name ?? "Season"} ${season.name}`;
  return (
    <Layout title={title}>
      <p>
        <a href={competitionPage(season.competition.competitionId)}>{season.competition.name}</a>
      </p>
      <h1>{title}</h1>
      <p class="lede">
        {season.fixtureCount === 1 ? "1 fixture" : `${season.fixtureCount} fixtures`}
        {season.startDate ? `, ${season.startDate} to ${season.endDate}` : ""}
      </p>
      <p>
        Leaderboards: <a href={leaderboardPage({ type: "season", id: season.seasonId }, "most_runs")}>most runs</a>,{" "}
        <a href={leaderboardPage({ type: "season", id: season.seasonId }, "most_wickets")}>most wickets</a> and more.
      </p>
      <Table caption="Fixtures" columns={["Date", { text: "Fixture" }, { text: "Stage" }, { text: "Result" }]}>
        <tbody>
          {fixtures.map((f) => (
            <tr>
              <td>{f.startDate}</td>
              <td class="text">
                <a href={fixturePage(f.fixtureId)}>{teams(f)}</a>
              </td>
              <td class="text">{f.stage ?? (f.matchNumber ? `Match ${f.matchNumber}` : "")}</td>
              <td class="text">{resultOf(f)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </Layout>
  );
}
