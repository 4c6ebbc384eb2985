import { Layout, SearchBox } from "../layout.js";

/** What a page link that leads nowhere shows: a way on, not a JSON envelope. */
export function NotFoundPage({ what }: { what: string }) {
  return (
    <Layout title="Not found">
      <h1>No such {what}</h1>
      <p>
        The link may be old, or the id mistyped. Search instead, or start from the <a href="/">competitions</a>.
      </p>
      <SearchBox />
    </Layout>
  );
}
