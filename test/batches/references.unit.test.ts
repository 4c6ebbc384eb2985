import { describe, expect, it } from "vitest";
import { type Candidate, candidatesFor } from "../../src/batches/references.js";

const ipl: Candidate = {
  id: "c-1",
  name: "Indian Premier League",
  names: ["IPL"],
  sourceIds: ["cricsheet:competition:Indian Premier League"],
};
const wpl: Candidate = {
  id: "c-2",
  name: "Women's Premier League",
  names: [],
  sourceIds: ["cricsheet:competition:WPL"],
};
const twin: Candidate = { id: "c-3", name: "indian premier league", names: [], sourceIds: [] };
const ids = (found: Candidate[]) => found.map((c) => c.id);

describe("a reference", () => {
  it("by name matches any name of the entity, whatever the case, accents and spacing", () => {
    for (const name of ["Indian Premier League", "indian  premier léague", "ipl", " IPL "])
      expect(ids(candidatesFor({ context: { name } }, [ipl, wpl]))).toEqual(["c-1"]);
  });

  it("by name matches every entity of that name: the caller tells ambiguity by the count", () => {
    expect(ids(candidatesFor({ context: { name: "Indian Premier League" } }, [ipl, wpl, twin]))).toEqual([
      "c-1",
      "c-3",
    ]);
  });

  it("by source id matches within its namespace and entity type only, whatever the name says", () => {
    const sourceId = "cricsheet:competition:WPL";
    expect(ids(candidatesFor({ sourceId, context: { name: "Indian Premier League" } }, [ipl, wpl]))).toEqual(["c-2"]);
    expect(ids(candidatesFor({ sourceId: "cricsheet:team:WPL" }, [ipl, wpl]))).toEqual([]);
    expect(ids(candidatesFor({ sourceId: "other:competition:WPL" }, [ipl, wpl]))).toEqual([]);
  });

  it("in the app namespace names a canonical id", () => {
    expect(ids(candidatesFor({ sourceId: "app:competition:c-3" }, [ipl, wpl, twin]))).toEqual(["c-3"]);
    expect(ids(candidatesFor({ sourceId: "app:competition:c-9" }, [ipl, wpl, twin]))).toEqual([]);
  });

  it("with neither a source id nor a name matches nothing", () => {
    expect(candidatesFor({}, [ipl, wpl])).toEqual([]);
  });
});
