import type { Child } from "hono/jsx";
import type { Competition, Competitor, Participant } from "../../read-api/schemas/reference.js";
import { Layout, SearchBox } from "../layout.js";
import { competitionPage, participantPage } from "../paths.js";

export type SearchResults = {
  query: string;
  participants: readonly Participant[];
  competitors: readonly Competitor[];
  competitions: readonly Competition[];
};

type Item = { name: string; href?: string; meta?: string; alternativeNames: readonly string[] };

/** One kind of result, as cards; nothing when none matched. */
function Found({ id, title, items }: { id: string; title: string; items: readonly Item[] }): Child {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul class="cards">
        {items.map((item) => (
          <li>
            {item.href ? <a href={item.href}>{item.name}</a> : item.name}
            {item.meta ? <span class="meta">{item.meta}</span> : null}
            {item.alternativeNames.length > 0 ? (
              <span class="meta">also {item.alternativeNames.join(", ")}</span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

const side = (t: Competitor) =>
  `${t.gender === "female" ? "Women's" : "Men's"} ${t.teamType === "club" ? "club" : "international"} side`;

/** Players, teams and competitions whose any spelling holds the text searched. */
export function SearchPage({ query, participants, competitors, competitions }: SearchResults) {
  const found = participants.length + competitors.length + competitions.length;
  return (
    <Layout title={query ? `Search: ${query}` : "Search"}>
      <h1>Search</h1>
      <SearchBox query={query} />
      {query && found === 0 ? <p class="empty">Nothing matches “{query}”.</p> : null}
      <Found
        id="players"
        title="Players"
        items={participants.map((p) => ({ ...p, href: participantPage(p.participantId) }))}
      />
      <Found id="teams" title="Teams" items={competitors.map((t) => ({ ...t, meta: side(t) }))} />
      <Found
        id="competitions"
        title="Competitions"
        items={competitions.map((c) => ({ ...c, href: competitionPage(c.competitionId) }))}
      />
    </Layout>
  );
}
