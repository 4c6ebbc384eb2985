import { createHash } from "node:crypto";
import { setImmediate as turn } from "node:timers/promises";
import pLimit from "p-limit";
import type { Sql } from "../db/database.js";
import { type DeliveryRow, deliveryRows, type EventFilters, type EventKey } from "./queries/events.js";

/**
 * How an export renders: its opening, each page of deliveries (`first` for the page that
 * opens the list) with the names the page shows, and its closing.
 */
export type ExportFormat = {
  head: string;
  page(rows: readonly DeliveryRow[], first: boolean): Promise<{ text: string; names?: Iterable<[string, string]> }>;
  tail: string;
};

/** What the body must be made of: `exportDigest`'s rows, and its names when the format shows names. */
export type ExpectedDigest = { rows: string; names?: string };

/**
 * An export's body, read a page of deliveries at a time as the client takes it: memory stays
 * one page whatever the export's size, and no page holds the event loop for long. The
 * digest read before the body (the ETag was made from it) is checked at the end: a body that
 * no longer matches it, because the fixture changed during the download, is broken off rather
 * than finished under an ETag that is not its own.
 */
export function exportBody(
  sql: Sql,
  fixtureId: string,
  filters: EventFilters,
  pageSize: number,
  format: ExportFormat,
  expected: ExpectedDigest,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const rows = joinedDigest();
  const names = new Map<string, string>();
  let after: EventKey | undefined;
  return new ReadableStream<Uint8Array>(
    {
      pull: (controller) =>
        pages(async () => {
          await turn();
          const first = after === undefined;
          const page = await deliveryRows(sql, fixtureId, filters, after, pageSize);
          for (const r of page) rows.add(`${r.event_id}:${r.revision}`);
          const rendered = await format.page(page, first);
          for (const [id, name] of rendered.names ?? []) names.set(id, name);
          const text = (first ? format.head : "") + rendered.text;
          const last = page.at(-1);
          if (last && page.length === pageSize) {
            after = [last.innings_ordinal, last.sequence_number, last.event_id];
            controller.enqueue(encoder.encode(text));
            return;
          }
          if (
            rows.digest() !== expected.rows ||
            (expected.names !== undefined && namesDigest(names) !== expected.names)
          )
            throw new Error(`the events of fixture ${fixtureId} changed during their export`);
          controller.enqueue(encoder.encode(text + format.tail));
          controller.close();
        }),
    },
    { highWaterMark: 0 },
  );
}

/**
 * Export pages read and rendered at once in this process, each after a turn of the event
 * loop: however many clients download, exports take one page's few milliseconds at a time
 * and every other request is served between them (keyed reads beside 10 exporting clients:
 * p99 150 to 360 ms with no bound, about 50 ms with this one; docs/benchmarks.md).
 */
const pages = pLimit(1);

/** `exportDigest`'s MD5 of comma-joined parts, taken a part at a time; empty for none. */
function joinedDigest() {
  const hash = createHash("md5");
  let parts = 0;
  return {
    add(part: string) {
      hash.update(parts++ === 0 ? part : `,${part}`);
    },
    digest: () => (parts === 0 ? "" : hash.digest("hex")),
  };
}

const namesDigest = (names: ReadonlyMap<string, string>) => {
  const digest = joinedDigest();
  // Code-unit order, as `collate "C"` orders the ids in the query.
  for (const id of [...names.keys()].sort()) digest.add(`${id}=${names.get(id)}`);
  return digest.digest();
};
