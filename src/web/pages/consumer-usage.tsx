import type { ConsumerView } from "../../consumers/queries.js";
import { type DailyUsage, type EndpointUsage, requestsOn } from "../../usage/summary.js";
import { UsageChart } from "../charts.js";
import { count } from "../format.js";
import { Layout } from "../layout.js";
import { Table } from "../table.js";

/** A consumer's usage over the kept dates: requests a day by status class, and each endpoint's. */
export function ConsumerUsagePage({
  consumer,
  days,
  endpoints,
  complete,
}: {
  consumer: ConsumerView;
  days: readonly DailyUsage[];
  endpoints: readonly EndpointUsage[];
  /** False when the usage read stopped at its row limit: the oldest dates may be short. */
  complete: boolean;
}) {
  const first = days[0]?.date ?? "";
  const last = days.at(-1)?.date ?? "";
  return (
    <Layout title={`Usage of ${consumer.name}`}>
      <p class="crumbs">
        <a href="/account/api-consumers">API consumers</a>
      </p>
      <h1>Usage of {consumer.name}</h1>
      <p class="lede">
        Requests with its keys from {first} to {last} (UTC), against {count(consumer.rateLimitPerMinute)} a minute and{" "}
        {count(consumer.dailyQuota)} a day. The API answers the same:{" "}
        <code>{`GET /api/v1/admin/api-consumers/${consumer.consumerId}/usage?from=${first}&to=${last}`}</code>.
      </p>
      {!complete && <p class="problem">Too many rows to read at once: the oldest dates may be short.</p>}
      <UsageChart days={days} />
      <DailyTable days={days} />
      {endpoints.length === 0 ? (
        <p class="empty">No request in these dates.</p>
      ) : (
        <Table caption="Requests by endpoint, busiest first" columns={[{ text: "Endpoint" }, "Requests", "Refused"]}>
          <tbody>
            {endpoints.map((e) => (
              <tr>
                <th scope="row" class="text">
                  <code>{e.endpoint}</code>
                </th>
                <td>{count(e.requests)}</td>
                <td>{count(e.refused)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Layout>
  );
}

/** The chart's numbers: each date with requests, by status class. */
function DailyTable({ days }: { days: readonly DailyUsage[] }) {
  const busy = days.filter((d) => Object.keys(d.requests).length > 0).reverse();
  if (busy.length === 0) return null;
  const classes = [...new Set(busy.flatMap((d) => Object.keys(d.requests)))].sort();
  return (
    <Table caption="Requests a day, latest first" columns={[{ text: "Date" }, ...classes, "All"]}>
      <tbody>
        {busy.map((d) => (
          <tr>
            <th scope="row" class="text">
              {d.date}
            </th>
            {classes.map((c) => (
              <td>{count(d.requests[c] ?? 0)}</td>
            ))}
            <td>{count(requestsOn(d))}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
