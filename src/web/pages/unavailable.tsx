import { Layout } from "../layout.js";

/** What a page shows when it cannot be served (too many requests, the database away, a failure): the API's message, in a page. */
export function UnavailablePage({ status, message }: { status: number; message: string }) {
  const title = status === 429 ? "Too many requests" : status === 503 ? "Back in a moment" : "Something went wrong";
  return (
    <Layout title={title}>
      <h1>{title}</h1>
      <p>{message}</p>
      <p>
        {status === 500 ? "It has been logged. " : ""}Try again shortly, or start from the <a href="/">competitions</a>.
      </p>
    </Layout>
  );
}
