import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { KNOWN_NAMES } from "../../src/questions/known-names.js";
import { NameIndex, normalise, withinSlips } from "../../src/questions/names.js";
import { cricsheetFile } from "../support/cricsheet.js";

const people = new NameIndex([
  { id: "kohli", names: ["V Kohli", "Virat Kohli"] },
  { id: "t-kohli", names: ["T Kohli"] },
  { id: "rohit", names: ["RG Sharma", "Rohit Sharma"] },
  { id: "rahul", names: ["R Sharma"] },
  { id: "sandeep", names: ["Sandeep Sharma"] },
  { id: "dhoni", names: ["MS Dhoni"] },
  { id: "abd", names: ["AB de Villiers"] },
  { id: "shakib", names: ["Shakib Al Hasan"] },
  { id: "harmeet-1", names: ["Harmeet Singh"] },
  { id: "harmeet-2", names: ["Harmeet Singh"] },
  { id: "saini", names: ["Navdeep Saini", "NA Saini"] },
  { id: "rana", names: ["N Rana"] },
  { id: "raina", names: ["SK Raina"] },
  { id: "krunal", names: ["KH Pandya", "Krunal Pandya"] },
  { id: "hardik", names: ["HH Pandya", "Hardik Pandya"] },
]);
const ids = (text: string) => people.find(text).sort();

describe("finding players by name", () => {
  it("by a whole name, any spelling, case and accents ignored", () => {
    expect(ids("V Kohli")).toEqual(["kohli"]);
    expect(ids("virat KOHLI")).toEqual(["kohli"]);
    expect(ids("Rohit Sharma")).toEqual(["rohit"]); // the known-as name, before R Sharma's initial
    expect(ids("NA Saini")).toEqual(["saini"]);
    expect(ids("Ṡhakib Al Hásan")).toEqual(["shakib"]);
    expect(ids("Harmeet Singh")).toEqual(["harmeet-1", "harmeet-2"]);
  });

  it("by initials or first names with the surname", () => {
    expect(ids("M.S. Dhoni")).toEqual(["dhoni"]);
    expect(ids("Mahendra Singh Dhoni")).toEqual(["dhoni"]);
    expect(ids("R Sharma")).toEqual(["rahul"]); // his scorecard name, before RG Sharma's initials
    expect(ids("R. Sharma")).toEqual(["rahul"]);
    expect(ids("Rahul Sharma")).toEqual(["rahul"]); // RG Sharma is known as Rohit
    expect(ids("Ramesh Sharma")).toEqual(["rahul"]); // an R, and no first name is known for R Sharma
    expect(ids("Hardik Krunal Pandya")).toEqual([]);
    expect(ids("S Sharma")).toEqual(["sandeep"]);
    expect(ids("Sandeep Sharma")).toEqual(["sandeep"]);
    expect(ids("AB de Villiers")).toEqual(["abd"]);
    expect(ids("Tarun Kohli")).toEqual(["t-kohli"]);
    expect(ids("Q Kohli")).toEqual([]);
  });

  it("by a surname alone, a multi-word surname or a first name alone", () => {
    expect(ids("Kohli")).toEqual(["kohli", "t-kohli"]);
    expect(ids("de Villiers")).toEqual(["abd"]);
    expect(ids("Villiers")).toEqual(["abd"]);
    expect(ids("Al Hasan")).toEqual(["shakib"]);
    expect(ids("Shakib")).toEqual(["shakib"]);
    expect(ids("Navdeep")).toEqual(["saini"]);
  });

  it("by a near spelling only when nothing closer matches, and never for short words", () => {
    expect(ids("Kolhi")).toEqual(["kohli", "t-kohli"]);
    expect(ids("Virat Kholi")).toEqual(["kohli"]);
    expect(ids("Dhonni")).toEqual(["dhoni"]);
    expect(ids("Rana")).toEqual(["rana"]); // exact, though Raina is one slip away
    expect(ids("Rena")).toEqual([]); // four letters: only two neighbours swapped
    expect(ids("Rnaa")).toEqual(["rana"]);
  });

  it("finds no one for text that is no name", () => {
    for (const text of ["", "   ", "the capital of france", "🏏", "科赫利", "x".repeat(300)])
      expect(ids(text), text).toEqual([]);
  });
});

describe("normalise", () => {
  it("drops case, accents, possessives and punctuation", () => {
    expect(normalise("  Kohli's  STRIKE-rate! ")).toBe("kohli strike rate");
    expect(normalise("Zaheer Khán")).toBe("zaheer khan");
    expect(normalise("D'Arcy Short")).toBe("darcy short");
  });
});

describe("withinSlips", () => {
  it("allows one edit in words of 5 to 7 letters, two from 8, a swap in four, none below", () => {
    expect(withinSlips("kolhi", "kohli")).toBe(true); // a swap is one edit
    expect(withinSlips("kohly", "kohli")).toBe(true);
    expect(withinSlips("kolhy", "kohli")).toBe(false);
    expect(withinSlips("bumrha", "bumrah")).toBe(true);
    expect(withinSlips("ashwinn", "ashwin")).toBe(true);
    expect(withinSlips("villeirs", "villiers")).toBe(true);
    expect(withinSlips("vilears", "villiers")).toBe(false);
    expect(withinSlips("rna", "rana")).toBe(false);
    expect(withinSlips("held", "head")).toBe(false);
    expect(withinSlips("kuar", "kaur")).toBe(true);
    expect(withinSlips("kura", "kaur")).toBe(false);
    expect(withinSlips("jadeja", "jadeja")).toBe(true);
  });
});

describe("the known-as names", () => {
  const register = new Map(
    readFileSync(cricsheetFile("register/people.csv"), "utf8")
      .split("\n")
      .slice(1)
      .map((line) => line.split(",") as [string, string]),
  );

  it("name register ids whose register name is the scorecard name given", () => {
    for (const [registerId, scorecardName] of KNOWN_NAMES)
      expect([registerId, register.get(registerId)]).toEqual([registerId, scorecardName]);
    expect(new Set(KNOWN_NAMES.map(([id]) => id)).size).toBe(KNOWN_NAMES.length);
  });
});
