import type { FixtureDetail } from "../../read-api/schemas/fixture.js";
import type { FixtureStatisticsDocument, InningsStatistic } from "../../read-api/schemas/fixture-statistics.js";
import type { WeatherResult } from "../../weather/weather.js";
import { hasManhattan, Manhattan, Worm } from "../charts.js";
import { Layout } from "../layout.js";
import { apiPath, competitionPage, participantPage, seasonPage } from "../paths.js";
import { resultOf } from "../results.js";
import { Table } from "../table.js";

function Batting({ innings }: { innings: InningsStatistic }) {
  const { batting, extras, total } = innings;
  return (
    <>
      <Table caption="Batting" columns={[{ text: "Batter" }, { text: "How out" }, "R", "B", "4s", "6s", "SR"]}>
        <tbody>
          {batting.lines.map((line) => (
            <tr>
              <th scope="row" class="text">
                <a href={participantPage(line.participantId)}>{line.name}</a>
              </th>
              <td class="text how">{line.howOut}</td>
              <td>{line.runs}</td>
              <td>{line.balls}</td>
              <td>{line.fours}</td>
              <td>{line.sixes}</td>
              <td>{line.strikeRate?.toFixed(2) ?? "–"}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" class="text">
              Extras
            </th>
            <td class="text how">{`(b ${extras.byes}, lb ${extras.legByes}, w ${extras.wides}, nb ${extras.noBalls}${extras.penalty ? `, pen ${extras.penalty}` : ""})`}</td>
            <td>{extras.total}</td>
            <td colspan={4} />
          </tr>
          <tr>
            <th scope="row" class="text">
              Total
            </th>
            <td class="text how">{`${total.wickets} wickets, ${total.overs} overs, ${total.runRate?.toFixed(2) ?? "–"} an over`}</td>
            <td>{total.runs}</td>
            <td colspan={4} />
          </tr>
        </tfoot>
      </Table>
      {batting.didNotBat.length > 0 ? <p>Did not bat: {batting.didNotBat.map((p) => p.name).join(", ")}</p> : null}
    </>
  );
}

function Bowling({ innings }: { innings: InningsStatistic }) {
  return (
    <Table caption="Bowling" columns={[{ text: "Bowler" }, "O", "M", "R", "W", "Econ", "Dots", "Wd", "Nb"]}>
      <tbody>
        {innings.bowling.lines.map((line) => (
          <tr>
            <th scope="row" class="text">
              <a href={participantPage(line.participantId)}>{line.name}</a>
            </th>
            <td>{line.overs}</td>
            <td>{line.maidens}</td>
            <td>{line.runs}</td>
            <td>{line.wickets}</td>
            <td>{line.economy?.toFixed(2) ?? "–"}</td>
            <td>{line.dots}</td>
            <td>{line.wides}</td>
            <td>{line.noBalls}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function FallAndStands({ innings }: { innings: InningsStatistic }) {
  const { wickets } = innings.fallOfWickets;
  const { partnerships } = innings.partnerships;
  return (
    <>
      {wickets.length > 0 ? (
        <p>
          <strong>Fall of wickets: </strong>
          {wickets.map((w) => `${w.wicket}-${w.score} (${w.name}, ${w.overs} ov)`).join(", ")}
        </p>
      ) : null}
      <Table caption="Partnerships" columns={["Wkt", { text: "Batters" }, "Runs", "Balls"]}>
        <tbody>
          {partnerships.map((p) => (
            <tr>
              <th scope="row">{p.wicket}</th>
              <td class="text">{p.batters.map((b) => b.name).join(" & ")}</td>
              <td>{p.runs}</td>
              <td>{p.balls}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}

const COMPLETENESS: Record<string, string> = {
  complete: "Complete: every ball of the match is recorded",
};

const value = (n: number | null, unit: string) => (n === null ? "–" : `${n} ${unit}`);

/** The day's weather at the ground, credited as its licence asks. */
function Weather({ weather }: { weather: WeatherResult }) {
  return (
    <>
      <dt>Weather</dt>
      <dd>
        {`${value(weather.temperatureMax, "°C")} high, ${value(weather.temperatureMin, "°C")} low, ${value(weather.precipitationSum, "mm")} rain, wind up to ${value(weather.windSpeedMax, "km/h")}`}{" "}
        (<a href="https://open-meteo.com/">Weather data by Open-Meteo.com</a>)
      </dd>
    </>
  );
}

/** A fixture: who, where, when, the weather when it is known, the result, the charts, and each innings' scorecard. */
export function FixturePage({
  fixture,
  statistics,
  weather,
}: {
  fixture: FixtureDetail;
  statistics: FixtureStatisticsDocument | null;
  weather: WeatherResult | undefined;
}) {
  const title = fixture.competitors.map((c) => c.name ?? "Unknown team").join(" v ");
  const state = statistics?.completeness.state;
  return (
    <Layout title={title}>
      <p>
        <a href={competitionPage(fixture.competition.competitionId)}>{fixture.competition.name}</a>
        {" · "}
        <a href={seasonPage(fixture.season.seasonId)}>{fixture.season.name}</a>
      </p>
      <h1>{title}</h1>
      <dl class="facts">
        <dt>Date</dt>
        <dd>
          {fixture.startDate === fixture.endDate ? fixture.startDate : `${fixture.startDate} to ${fixture.endDate}`}
        </dd>
        {fixture.venue ? (
          <>
            <dt>Venue</dt>
            <dd>{[fixture.venue.name, fixture.venue.city].filter(Boolean).join(", ")}</dd>
          </>
        ) : null}
        {weather ? <Weather weather={weather} /> : null}
        {fixture.stage ? (
          <>
            <dt>Stage</dt>
            <dd>{fixture.stage}</dd>
          </>
        ) : null}
        <dt>Data</dt>
        <dd>
          <span class={state === "complete" ? "pill" : "pill warn"}>
            {state ? (COMPLETENESS[state] ?? `Incomplete (${state})`) : "Statistics not derived yet"}
          </span>
        </dd>
      </dl>
      <p class="result">{resultOf(fixture)}</p>
      {statistics && statistics.innings.length > 0 ? (
        <>
          <h2>Charts</h2>
          <Worm innings={statistics.innings} />
          {hasManhattan(statistics.innings) ? <Manhattan innings={statistics.innings} /> : null}
          {statistics.innings.map((innings) => (
            <section aria-labelledby={`innings-${innings.ordinal}`}>
              <h2 id={`innings-${innings.ordinal}`}>
                {innings.battingCompetitor.name ?? "Unknown team"}
                {innings.superOver ? " (super over)" : ""}
                {innings.total.declared ? " (declared)" : ""}: {innings.total.runs}/{innings.total.wickets} (
                {innings.total.overs} ov)
              </h2>
              <Batting innings={innings} />
              <Bowling innings={innings} />
              <FallAndStands innings={innings} />
            </section>
          ))}
        </>
      ) : (
        <p class="empty">No deliveries recorded yet.</p>
      )}
      <p>
        As JSON: <a href={apiPath("fixtures", fixture.fixtureId, "statistics")}>statistics</a>,{" "}
        <a href={apiPath("fixtures", fixture.fixtureId, "events")}>deliveries</a>; as CSV:{" "}
        <a href={apiPath("fixtures", fixture.fixtureId, "events", "export.csv")}>deliveries</a>.
      </p>
    </Layout>
  );
}
