import type { ParticipantAggregate } from "../../read-api/schemas/player-statistics.js";
import type { Participant } from "../../read-api/schemas/reference.js";
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
      <p>
        As JSON: <a href={apiPath("participants", participant.participantId, "statistics")}>statistics</a>,{" "}
        <a href={apiPath("participants", participant.participantId, "fixtures")}>fixtures</a>.
      </p>
    </Layout>
  );
}
