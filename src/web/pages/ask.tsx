import type { Answer } from "../../questions/answer.js";
import { MAX_QUESTION_CHARACTERS } from "../../questions/limits.js";
import type { LeaderboardRow, ParticipantAggregate } from "../../read-api/schemas/player-statistics.js";
import { Layout } from "../layout.js";
import { participantPage } from "../paths.js";
import { Table } from "../table.js";

const EXAMPLES = [
  "Who scored the most runs in IPL 2016?",
  "Most wickets in the IPL",
  "Virat Kohli's career batting average",
  "Best economy rate in IPL 2016",
];

/** The question box: a question in English, read as the API reads it, and its answer from the published reads. */
export function AskPage({ question, answer }: { question: string; answer: Answer | undefined }) {
  return (
    <Layout title={question ? `${question} · Ask` : "Ask a question"}>
      <h1>Ask a question</h1>
      <p class="lede">
        Leaderboards and players' figures, asked in plain English. Each question is read into a structured one, shown
        with its answer; nothing is guessed.
      </p>
      <form class="search" action="/ask" method="get">
        <label class="visually-hidden" for="q">
          Your question
        </label>
        <input id="q" name="q" type="search" value={question} maxlength={MAX_QUESTION_CHARACTERS} />
        <button type="submit">Ask</button>
      </form>
      {answer ? <Answered answer={answer} /> : <Examples />}
    </Layout>
  );
}

function Examples() {
  return (
    <section>
      <h2>For example</h2>
      <ul>
        {EXAMPLES.map((example) => (
          <li>
            <a href={`/ask?q=${encodeURIComponent(example)}`}>{example}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Answered({ answer }: { answer: Answer }) {
  if (answer.outcome === "no_match")
    return (
      <section>
        <h2>Not understood</h2>
        <ul>
          {answer.unmatched.map((u) => (
            <li>{u.message}</li>
          ))}
        </ul>
        <Examples />
      </section>
    );
  if (answer.outcome === "ambiguous")
    return (
      <section>
        <h2>Which one?</h2>
        {answer.ambiguities.map((a) => (
          <>
            <p>{a.message}</p>
            <ul>
              {a.candidates.map((candidate) => (
                <li>{candidate.label}</li>
              ))}
            </ul>
          </>
        ))}
      </section>
    );
  return (
    <section>
      <h2 id="reading">{answer.paraphrase}</h2>
      {answer.figure ? (
        <p class="result">
          {String(answer.figure.value ?? "none")} <span class="how">({answer.figure.path})</span>
        </p>
      ) : answer.definition.type === "leaderboard" ? (
        <Leaderboard rows={(answer.resource as { data: LeaderboardRow[] }).data} caption={answer.paraphrase} />
      ) : (
        <Figures aggregate={(answer.resource as { data: ParticipantAggregate }).data} />
      )}
      <p>
        The same from the API: <a href={answer.endpoint}>{answer.endpoint}</a>
      </p>
    </section>
  );
}

function Leaderboard({ rows, caption }: { rows: readonly LeaderboardRow[]; caption: string }) {
  return (
    <Table caption={caption} columns={["Rank", { text: "Player" }, "Value"]}>
      <tbody>
        {rows.map((r) => (
          <tr>
            <td>{r.rank}</td>
            <th scope="row" class="text">
              <a href={participantPage(r.participantId)}>{r.participantName}</a>
            </th>
            <td>{String(r.value)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function Figures({ aggregate }: { aggregate: ParticipantAggregate }) {
  const { batting, bowling } = aggregate;
  return (
    <dl class="facts">
      <dt>Matches</dt>
      <dd>{aggregate.matches}</dd>
      <dt>Batting</dt>
      <dd>
        {batting.runs} runs, average {batting.average ?? "–"}, strike rate {batting.strikeRate ?? "–"}, highest{" "}
        {batting.highestScore ?? "–"}
      </dd>
      <dt>Bowling</dt>
      <dd>
        {bowling.wickets} wickets, economy {bowling.economy ?? "–"}, best {bowling.bestFigures ?? "–"}
      </dd>
    </dl>
  );
}
