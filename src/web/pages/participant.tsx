import type { ParticipantAggregate } from "../../read-api/schemas/player-statistics.js";
import type { Participant } from "../../read-api/schemas/reference.js";
import { SeasonBars } from "../charts.js";
import { Layout } from "../layout.js";
import { apiPath } from "../paths.js";
import { Table } from "../table.js";

const scopeName = ({ scope }: ParticipantAggregate) =>
  scope.type === "career"
    ? "Career"
    : scope.type === "competition"
      ? (scope.name ?? "")
      : `${scope.competition?.name ?? ""} ${scope.name ?? ""}`;

const BATTING_COLUMNS = ["Scope", "M", "Inns", "NO", "Runs", "HS", "Ave", "SR", "100", "50", "4s", "6s"];
const BOWLING_COLUMNS = ["Scope", "Inns", "Overs", "Runs", "Wkts", "Best", "Ave", "Econ", "SR"];

const figure = (value: number | string | null | undefined) =>
  value === null || value === undefined ? "–" : String(value);

/** A player: career, each competition and each season, batting and bowling. */
export function ParticipantPage({
  participant,
  aggregates,
}: {
  participant: Participant;
  aggregates: readonly ParticipantAggregate[];
}) {
  return (
    <Layout title={participant.name}>
      <h1>{participant.name}</h1>
      {participant.alternativeNames.length > 0 ? (
        <p class="lede">Also {participant.alternativeNames.join(", ")}</p>
      ) : null}
      {aggregates.length === 0 ? <p class="empty">No figures yet.</p> : null}
      {aggregates.length > 0 ? (
        <>
          <Table caption="Batting" columns={BATTING_COLUMNS}>
            <tbody>
              {aggregates.map((a) => (
                <tr>
                  <th scope="row">{scopeName(a)}</th>
                  <td>{a.matches}</td>
                  <td>{a.batting.innings}</td>
                  <td>{a.batting.notOuts}</td>
                  <td>{a.batting.runs}</td>
                  <td>{figure(a.batting.highestScore)}</td>
                  <td>{figure(a.batting.average)}</td>
                  <td>{figure(a.batting.strikeRate)}</td>
                  <td>{a.batting.hundreds}</td>
                  <td>{a.batting.fifties}</td>
                  <td>{a.batting.fours}</td>
                  <td>{a.batting.sixes}</td>
                </tr>
              ))}
            </tbody>
          </Table>

          <Table caption="Bowling" columns={BOWLING_COLUMNS}>
            <tbody>
              {aggregates.map((a) => (
                <tr>
                  <th scope="row">{scopeName(a)}</th>
                  <td>{a.bowling.innings}</td>
                  <td>{a.bowling.overs}</td>
                  <td>{a.bowling.runs}</td>
                  <td>{a.bowling.wickets}</td>
                  <td>{figure(a.bowling.bestFigures)}</td>
                  <td>{figure(a.bowling.average)}</td>
                  <td>{figure(a.bowling.economy)}</td>
                  <td>{figure(a.bowling.strikeRate)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      ) : null}
      <SeasonCharts aggregates={aggregates} />
      <p>
        As JSON: <a href={apiPath("participants", participant.participantId, "statistics")}>statistics</a>,{" "}
        <a href={apiPath("participants", participant.participantId, "fixtures")}>fixtures</a>.
      </p>
    </Layout>
  );
}

/**
 * Runs, and wickets when there are any, season by season in each competition of two seasons
 * or more: the tables above hold the same figures.
 */
const seasonName = (a: ParticipantAggregate) => a.scope.name ?? "";

function SeasonCharts({ aggregates }: { aggregates: readonly ParticipantAggregate[] }) {
  const byCompetition = new Map<string, ParticipantAggregate[]>();
  for (const a of aggregates)
    if (a.scope.type === "season") {
      const competition = a.scope.competition?.competitionId ?? "";
      const seasons = byCompetition.get(competition) ?? [];
      seasons.push(a);
      byCompetition.set(competition, seasons);
    }
  const charted = [...byCompetition.values()]
    .filter((seasons) => seasons.length > 1)
    .map((seasons) => [seasons[0]?.scope.competition?.name ?? "", seasons] as const);
  if (charted.length === 0) return null;
  return (
    <section>
      <h2>Season by season</h2>
      {charted.map(([competition, seasons], n) => {
        const wickets = seasons.some((a) => a.bowling.wickets > 0);
        return (
          <>
            <SeasonBars
              id={`runs-${n}`}
              title={`Runs a season, ${competition}`}
              yLabel="Runs"
              seasons={seasons.map((a) => ({ label: seasonName(a), value: a.batting.runs }))}
            />
            {wickets && (
              <SeasonBars
                id={`wickets-${n}`}
                title={`Wickets a season, ${competition}`}
                yLabel="Wickets"
                seasons={seasons.map((a) => ({ label: seasonName(a), value: a.bowling.wickets }))}
              />
            )}
          </>
        );
      })}
    </section>
  );
}
