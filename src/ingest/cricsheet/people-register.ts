import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { parse } from "csv-parse/sync";
import { KNOWN_NAMES } from "../../questions/known-names.js";

const REGISTER_FILE = fileURLToPath(new URL("../../../datasets/cricsheet/people.csv.gz", import.meta.url));

type Entry = { identifier: string; name: string; unique_name: string };

/** The known-as names of well-known players ("Virat Kohli" for V Kohli), by register id. */
const KNOWN_AS = new Map(KNOWN_NAMES.map(([registerId, , knownAs]) => [registerId, knownAs]));

/**
 * What a person is known by, by register id: Cricsheet's people register
 * (datasets/cricsheet/README.md: the name each person is known by and their name unique
 * across the register), read once on first use, and the known-as names the questions
 * already keep for well-known players (src/questions/known-names.ts), which no register holds.
 */
export class PeopleRegister {
  private static shipped: Promise<PeopleRegister> | undefined;

  private constructor(private readonly byId: ReadonlyMap<string, readonly string[]>) {}

  static load(): Promise<PeopleRegister> {
    PeopleRegister.shipped ??= readFile(REGISTER_FILE)
      .then((gzipped) => promisify(gunzip)(gzipped))
      .then((csv) => {
        const entries: Entry[] = parse(csv, { columns: true });
        const names = (e: Entry) => [...new Set([e.name, e.unique_name, ...(KNOWN_AS.get(e.identifier) ?? [])])];
        return new PeopleRegister(new Map(entries.map((e) => [e.identifier, names(e)])));
      });
    return PeopleRegister.shipped;
  }

  /** The names of a register id (the register's known-as name first); none when it is not listed. */
  namesOf(registerId: string): readonly string[] {
    return this.byId.get(registerId) ?? [];
  }
}
