import { artifactPath } from "../../release-api/schemas.js";
import type { Release } from "../../releases/queries.js";
import { count } from "../format.js";
import { Layout } from "../layout.js";
import { Table } from "../table.js";

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The published dataset releases, newest first: what each holds, and its download with its checksum. */
export function ReleasesPage({ releases }: { releases: readonly Release[] }) {
  return (
    <Layout title="Dataset releases">
      <h1>Dataset releases</h1>
      <p class="lede">
        Immutable snapshots of everything published, as one canonical JSON file each: the same version always downloads
        the same bytes, which its SHA-256 covers.
      </p>
      {releases.length === 0 ? (
        <p class="empty">No release is published yet.</p>
      ) : (
        <Table
          caption="Published releases"
          columns={["Version", "Published", "Fixtures", "Deliveries", "Download", { text: "SHA-256" }]}
        >
          <tbody>
            {releases.map((r) => (
              <tr>
                <th scope="row">{r.version}</th>
                <td>{r.createdAt.toISOString().slice(0, 10)}</td>
                <td>{count(r.scope.counts.fixtures)}</td>
                <td>{count(r.scope.counts.deliveries)}</td>
                <td>
                  <a href={artifactPath(r.version)} download>
                    {megabytes(r.byteLength)}
                  </a>
                </td>
                <td class="text">
                  <code>{r.sha256}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Layout>
  );
}
