import type { Competition, Season } from "../../read-api/schemas/reference.js";
import { Layout } from "../layout.js";
import { seasonPage } from "../paths.js";
import { Table } from "../table.js";

/** A competition and its seasons, newest first. */
export function CompetitionPage({ competition, seasons }: { competition: Competition; seasons: readonly Season[] }) {
  return (
    <Layout title={competition.name}>
      <h1>{competition.name}</h1>
      {competition.alternativeNames.length > 0 ? (
        <p class="lede">Also known as {competition.alternativeNames.join(", ")}</p>
      ) : null}
      <Table caption="Seasons" columns={["Season", "From", "To", "Fixtures"]}>
        <tbody>
          {seasons.map((s) => (
            <tr>
              <td>
                <a href={seasonPage(s.seasonId)}>{s.name}</a>
              </td>
              <td>{s.startDate ?? "–"}</td>
              <td>{s.endDate ?? "–"}</td>
              <td>{s.fixtureCount}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </Layout>
  );
}
