import type { Competition, Competitor, Participant } from "../../read-api/schemas/reference.js";
import { Layout, SearchBox } from "../layout.js";
import { competitionPage, participantPage } from "../paths.js";

export type SearchResults = {
  query: string;
  participants: readonly Participant[];
  competitors: readonly Competitor[];
  competitions: readonly Competition[];
};

const also = (names: readonly string[]) =>
  names.length > 0 ? <span class="meta">also {names.join(", ")}</span> : null;

/** Players, teams and competitions whose any spelling holds the text searched. */
export function SearchPage({ query, participants, competitors, competitions }: SearchResults) {
  const found = participants.length + competitors.length + competitions.length;
  return (
    <Layout title={query ? `Search: ${query}` : "Search"}>
      <h1>Search</h1>
      <SearchBox query={query} />
      {query && found === 0 ? <p class="empty">Nothing matches “{query}”.</p> : null}
      {participants.length > 0 ? (
        <section aria-labelledby="players">
          <h2 id="players">Players</h2>
          <ul class="cards">
            {participants.map((p) => (
              <li>
                <a href={participantPage(p.participantId)}>{p.name}</a>
                {also(p.alternativeNames)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {competitors.length > 0 ? (
        <section aria-labelledby="teams">
          <h2 id="teams">Teams</h2>
          <ul class="cards">
            {competitors.map((t) => (
              <li>
                {t.name}
                <span class="meta">
                  {t.gender === "female" ? "Women's" : "Men's"} {t.teamType === "club" ? "club" : "international"} side
                </span>
                {also(t.alternativeNames)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {competitions.length > 0 ? (
        <section aria-labelledby="competitions">
          <h2 id="competitions">Competitions</h2>
          <ul class="cards">
            {competitions.map((c) => (
              <li>
                <a href={competitionPage(c.competitionId)}>{c.name}</a>
                {also(c.alternativeNames)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Layout>
  );
}
