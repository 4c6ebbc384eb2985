import type { ParticipantAggregate } from "../../read-api/schemas/player-statistics.js";
import type { Participant } from "../../read-api/schemas/reference.js";
import { Layout } from "../layout.js";
import { apiPath } from "../paths.js";

const scopeName = ({ scope }: ParticipantAggregate) =>
  scope.type === "career"
    ? "Career"
    : scope.type === "competition"
      ? (scope.name ?? "")
      : `${scope.competition?.name ?? ""} ${scope.name ?? ""}`;

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
          <div class="table-wrap">
            <table>
              <caption>Batting</caption>
              <thead>
                <tr>
                  <th scope="col">Scope</th>
                  <th scope="col">M</th>
                  <th scope="col">Inns</th>
                  <th scope="col">NO</th>
                  <th scope="col">Runs</th>
                  <th scope="col">HS</th>
                  <th scope="col">Ave</th>
                  <th scope="col">SR</th>
                  <th scope="col">100</th>
                  <th scope="col">50</th>
                  <th scope="col">4s</th>
                  <th scope="col">6s</th>
                </tr>
              </thead>
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
            </table>
          </div>
          <div class="table-wrap">
            <table>
              <caption>Bowling</caption>
              <thead>
                <tr>
                  <th scope="col">Scope</th>
                  <th scope="col">Inns</th>
                  <th scope="col">Overs</th>
                  <th scope="col">Runs</th>
                  <th scope="col">Wkts</th>
                  <th scope="col">Best</th>
                  <th scope="col">Ave</th>
                  <th scope="col">Econ</th>
                  <th scope="col">SR</th>
                </tr>
              </thead>
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
            </table>
          </div>
        </>
      ) : null}
      <p>
        As JSON: <a href={apiPath("participants", participant.participantId, "statistics")}>statistics</a>,{" "}
        <a href={apiPath("participants", participant.participantId, "fixtures")}>fixtures</a>.
      </p>
    </Layout>
  );
}
