import type { Competition } from "../../read-api/schemas/reference.js";
import { Layout, SearchBox } from "../layout.js";
import { competitionPage } from "../paths.js";

/** The front page: what this is, a search box, and every competition the data holds. */
export function HomePage({ competitions }: { competitions: readonly Competition[] }) {
  return (
    <Layout title="Home">
      <h1>Cricket Analytics</h1>
      <p class="lede">
        Ball-by-ball cricket data, with scorecards and statistics derived from it. Everything here is also an open JSON
        API: see the <a href="/docs">API reference</a>.
      </p>
      <SearchBox />
      <h2>Competitions</h2>
      {competitions.length === 0 ? (
        <p class="empty">No competitions yet: import some matches with `cricket import cricsheet`.</p>
      ) : (
        <ul class="cards">
          {competitions.map((c) => (
            <li>
              <a href={competitionPage(c.competitionId)}>{c.name}</a>
            </li>
          ))}
        </ul>
      )}
    </Layout>
  );
}
