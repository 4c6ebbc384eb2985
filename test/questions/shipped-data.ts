import { readdirSync } from "node:fs";
import { CRICSHEET } from "../support/cricsheet.js";

/** Every match file shipped in ../shared/data/cricsheet, relative to it. */
export const SHIPPED_MATCHES = ["ipl", "t20i", "t20i_women", "odi", "tests", "wpl"].flatMap((collection) =>
  readdirSync(`${CRICSHEET}/${collection}`)
    .filter((file) => file.endsWith(".json"))
    .map((file) => `${collection}/${file}`),
);
