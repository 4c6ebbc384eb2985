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
  it("asks for its name in its city, then the city, then the other names as sources wrote them", () =>
    expect(
      venueLookups({
        name: "Rajiv Gandhi International Stadium",
        city: "Hyderabad",
        otherNames: ["Rajiv Gandhi International Stadium, Uppal", "hyderabad"],
      }),
    ).toEqual([
      { query: "Rajiv Gandhi International Stadium", inCity: "Hyderabad" },
      { query: "Hyderabad" },
      { query: "Rajiv Gandhi International Stadium, Uppal" },
    ]));

  it("without a city: the name, then the other names", () =>
    expect(venueLookups({ name: "Sharjah Cricket Stadium", city: null, otherNames: [] })).toEqual([
      { query: "Sharjah Cricket Stadium" },
    ]));

  it("asks at most four times", () =>
    expect(venueLookups({ name: "A", city: "B", otherNames: ["C", "D", "E", "F"] })).toHaveLength(4));

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
    expect(accepted({ query: "x", inCity: "Montreal" }, [place("Montréal")])).toEqual(place("Montréal"));
  });

  it("accepts the first match of a lookup without a city, and nothing from no match", () => {
    expect(accepted({ query: "Mumbai" }, [place("Mumbai"), place("Mumbai", { admin1: "Assam" })])).toEqual(
      place("Mumbai"),
    );
    expect(accepted({ query: "Mumbai" }, [])).toBeUndefined();
  });
});
