import { describe, expect, it } from "vitest";
import { addDays, weatherSource } from "../../src/weather/calendar.js";
import { accepted, venueLookups } from "../../src/weather/venue-location.js";

describe("which API holds a date", () => {
  const today = "2026-11-27";
  it.each([
    ["2026-12-13", "forecast"], // 16 days ahead
    ["2026-12-14", null],
    [today, "forecast"],
    ["2026-08-27", "forecast"], // 92 days ago
    ["2026-08-26", "archive"],
    ["1940-01-01", "archive"],
    ["1939-12-31", null],
  ])("%s: %s", (date, source) => expect(weatherSource(date, today)).toBe(source));

  it("counts days across month and leap-year ends", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2024-03-01", -92)).toBe("2023-11-30");
  });
});

describe("locating a venue", () => {
  it("asks for its name, then the other names as sources wrote them, then the city, every match in the city", () =>
    expect(
      venueLookups({
        name: "Rajiv Gandhi International Stadium",
        city: "Hyderabad",
        otherNames: ["Rajiv Gandhi International Stadium, Uppal", "rajiv gandhi international stadium"],
      }),
    ).toEqual([
      { query: "Rajiv Gandhi International Stadium", inCity: "Hyderabad" },
      { query: "Rajiv Gandhi International Stadium, Uppal", inCity: "Hyderabad" },
      { query: "Hyderabad", inCity: "Hyderabad" },
    ]));

  it("without a city: the name, then the other names, anywhere", () =>
    expect(venueLookups({ name: "Sharjah Cricket Stadium", city: null, otherNames: ["Sharjah Stadium"] })).toEqual([
      { query: "Sharjah Cricket Stadium", inCity: undefined },
      { query: "Sharjah Stadium", inCity: undefined },
    ]));

  it("asks at most five times, the city always among them", () => {
    const lookups = venueLookups({ name: "A", city: "B", otherNames: ["C", "D", "E", "F"] });
    expect(lookups.map((l) => l.query)).toEqual(["A", "C", "D", "E", "B"]);
  });

  const place = (name: string, admin: Record<string, string> = {}) => ({
    id: 1,
    name,
    latitude: 0,
    longitude: 0,
    ...admin,
  });

  it("accepts the first match in the city, by its name or any of its areas, case and accents aside", () => {
    const elsewhere = place("Eden Gardens", { admin1: "Waikato" });
    const inKolkata = place("Eden Gardens", { admin1: "West Bengal", admin2: "Kolkata" });
    expect(accepted({ query: "Eden Gardens", inCity: "kolkata" }, [elsewhere, inKolkata])).toBe(inKolkata);
    expect(accepted({ query: "Eden Gardens", inCity: "Delhi" }, [elsewhere, inKolkata])).toBeUndefined();
    expect(accepted({ query: "Montreal", inCity: "Montreal" }, [place("Montréal")])).toEqual(place("Montréal"));
  });

  it("accepts only a match named as the text searched or one of its parts, word for word", () => {
    expect(accepted({ query: "Wankhede Stadium, Mumbai" }, [place("Mumbai")])).toEqual(place("Mumbai"));
    expect(accepted({ query: "M.Chinnaswamy Stadium" }, [place("M. Chinnaswamy Stadium")])).toBeDefined();
    // A fuzzy match of something else is not the venue: not another club, not a town named Cricket.
    expect(
      accepted({ query: "Sharjah Cricket Stadium" }, [place("Sharjah Cricket Club"), place("Cricket")]),
    ).toBeUndefined();
    expect(accepted({ query: "Perth" }, [place("Perthshire")])).toBeUndefined();
  });

  it("accepts the first acceptable match of a lookup without a city, and nothing from no match", () => {
    expect(accepted({ query: "Mumbai" }, [place("Mumbai"), place("Mumbai", { admin1: "Assam" })])).toEqual(
      place("Mumbai"),
    );
    expect(accepted({ query: "Mumbai" }, [])).toBeUndefined();
  });
});
