import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { parse } from "csv-parse/sync";

const REGISTER_FILE = fileURLToPath(new URL("../../../datasets/cricsheet/people.csv.gz", import.meta.url));

type Entry = { identifier: string; name: string; unique_name: string };

/**
 * Cricsheet's people register (datasets/cricsheet/README.md): the name each person is known by
 * and their name unique across the register, by register id. Read once, on first use.
 */
export class PeopleRegister {
  private static shipped: Promise<PeopleRegister> | undefined;

  private constructor(private readonly byId: ReadonlyMap<string, readonly string[]>) {}

  static load(): Promise<PeopleRegister> {
    PeopleRegister.shipped ??= readFile(REGISTER_FILE)
      .then((gzipped) => promisify(gunzip)(gzipped))
      .then((csv) => {
        const entries: Entry[] = parse(csv, { columns: true });
        return new PeopleRegister(new Map(entries.map((e) => [e.identifier, [...new Set([e.name, e.unique_name])]])));
      });
    return PeopleRegister.shipped;
  }

  /** The register's names for a register id (known-as name first); none when it is not listed. */
  namesOf(registerId: string): readonly string[] {
    return this.byId.get(registerId) ?? [];
  }
}
