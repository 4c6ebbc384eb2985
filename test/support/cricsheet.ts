import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The shared real Cricsheet data beside the repository (shared/data/cricsheet). */
export const CRICSHEET = path.resolve(fileURLToPath(new URL("../../../shared/data/cricsheet", import.meta.url)));

export const cricsheetFile = (relative: string) => path.join(CRICSHEET, relative);

/**
 * The match files of a collection numbered `first` to `last` (Cricsheet numbers a season's
 * matches in a row), skipping numbers without a file (abandoned matches).
 */
export const matchFiles = (collection: string, first: number, last: number) =>
  Array.from({ length: last - first + 1 }, (_, i) => `${collection}/${first + i}.json`).filter((file) =>
    existsSync(cricsheetFile(file)),
  );

export type RawDelivery = {
  batter: string;
  bowler: string;
  non_striker: string;
  runs: { batter: number; extras: number; total: number; non_boundary?: boolean };
  extras?: { wides?: number; noballs?: number; byes?: number; legbyes?: number; penalty?: number };
  wickets?: { kind: string; player_out: string; fielders?: { name?: string; substitute?: boolean }[] }[];
};

export type RawMatch = {
  meta: { revision: number; data_version: string; created: string };
  info: Record<string, unknown> & { registry: { people: Record<string, string> }; teams: string[] };
  innings: {
    team: string;
    super_over?: boolean;
    overs?: { over: number; deliveries: RawDelivery[] }[];
  }[];
};

export const readMatch = (relative: string): RawMatch => JSON.parse(readFileSync(cricsheetFile(relative), "utf8"));

export const deliveriesIn = (match: RawMatch) =>
  match.innings.flatMap((inn, inningsIndex) =>
    (inn.overs ?? []).flatMap((o) =>
      o.deliveries.map((d, position) => ({ inningsIndex, over: o.over, position, ...d })),
    ),
  );
