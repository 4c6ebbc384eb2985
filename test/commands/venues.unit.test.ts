import { describe, expect, it } from "vitest";
import { VenueNotFound, venueDecider } from "../../src/commands/venues/decide.js";
import { venueRecord as releaseRecordOfVenue } from "../../src/releases/records.js";
import type { VenueEvent } from "../../streams/venue.js";
import { spec } from "../support/decider.js";

const venueId = "v-wankhede";
const registered: VenueEvent = {
  type: "VenueRegistered",
  data: { venueId, name: "Wankhede Stadium", city: "Mumbai", latitude: null, longitude: null, sourceIds: [] },
};
const spelled: VenueEvent = { type: "VenueNameAdded", data: { venueId, name: "Wankhede Stadium, Mumbai" } };
const source = {
  provider: "open-meteo-geocoding" as const,
  query: "Mumbai",
  placeId: 1275339,
  placeName: "Mumbai",
  country: "India",
};
const located: VenueEvent = {
  type: "VenueLocated",
  data: { venueId, latitude: 19.07283, longitude: 72.88261, source },
};
const locate = (lookedUpAs = { name: "Wankhede Stadium", city: "Mumbai" as string | null }, latitude = 19.07283) => ({
  type: "LocateVenue" as const,
  venueId,
  latitude,
  longitude: 72.88261,
  source,
  lookedUpAs,
});
const given = spec(venueDecider).given;

describe("an administrator's change of a venue", () => {
  it("writes its new name and city together", () =>
    given([registered])
      .when({ type: "ChangeVenue", venueId, name: "Wankhede" })
      .thenEmits([{ type: "VenueRenamed", data: { venueId, name: "Wankhede", city: "Mumbai" } }]));

  it("may remove the city", () =>
    given([registered])
      .when({ type: "ChangeVenue", venueId, city: null })
      .thenEmits([{ type: "VenueRenamed", data: { venueId, name: "Wankhede Stadium", city: null } }]));

  it("writes nothing for the labels it has", () =>
    given([registered]).when({ type: "ChangeVenue", venueId, name: "Wankhede Stadium", city: "Mumbai" }).thenEmits([]));

  it("keeps coordinates an administrator sets, unless the venue has them already", () => {
    given([registered])
      .when({ type: "ChangeVenue", venueId, location: { latitude: 18.9389, longitude: 72.8258 } })
      .thenEmits([
        {
          type: "VenueLocated",
          data: { venueId, latitude: 18.9389, longitude: 72.8258, source: { provider: "administrator" } },
        },
      ]);
    given([registered, located])
      .when({ type: "ChangeVenue", venueId, location: { latitude: 19.07283, longitude: 72.88261 } })
      .thenEmits([]);
  });

  it("renames and then places the venue when both come at once, even at the coordinates it had", () =>
    given([registered, located])
      .when({ type: "ChangeVenue", venueId, name: "Wankhede", location: { latitude: 19.07283, longitude: 72.88261 } })
      .thenEmits([
        { type: "VenueRenamed", data: { venueId, name: "Wankhede", city: "Mumbai" } },
        {
          type: "VenueLocated",
          data: { venueId, latitude: 19.07283, longitude: 72.88261, source: { provider: "administrator" } },
        },
      ]));

  it("refuses a venue never registered", () =>
    given([]).when({ type: "ChangeVenue", venueId, name: "X" }).thenThrows(VenueNotFound));
});

describe("keeping a location", () => {
  it("keeps one found under the venue's current name and city", () =>
    given([registered])
      .when(locate())
      .thenEmits([{ type: "VenueLocated", data: located.data }]));

  it("drops one found under labels since changed", () =>
    given([registered, { type: "VenueRenamed", data: { venueId, name: "Wankhede", city: "Mumbai" } }])
      .when(locate())
      .thenEmits([]));

  it("drops one found under another city", () =>
    given([registered])
      .when(locate({ name: "Wankhede Stadium", city: "Bombay" }))
      .thenEmits([]));

  it("writes nothing when the venue is there already (two lookups racing keep one)", () =>
    given([registered, located]).when(locate()).thenEmits([]));

  it("moves a venue whose location differs", () =>
    given([registered, located])
      .when(locate(undefined, 19.1))
      .thenEmits([{ type: "VenueLocated", data: { ...located.data, latitude: 19.1 } }]));

  it("keeps none for a venue never registered", () => given([]).when(locate()).thenEmits([]));

  it("locates a renamed venue again, under its new labels", () =>
    given([registered, located, { type: "VenueRenamed", data: { venueId, name: "Wankhede", city: "Mumbai" } }])
      .when(locate({ name: "Wankhede", city: "Mumbai" }))
      .thenEmits([{ type: "VenueLocated", data: located.data }]));
});

describe("a venue's record (the release artefact's)", () => {
  it("holds its labels, other names (former ones too) and coordinates while they hold", () => {
    expect(releaseRecordOfVenue([registered, spelled, located])).toMatchObject({
      name: "Wankhede Stadium",
      city: "Mumbai",
      otherNames: ["Wankhede Stadium, Mumbai"],
      latitude: 19.07283,
      longitude: 72.88261,
    });
    const renamed: VenueEvent = {
      type: "VenueRenamed",
      data: { venueId, name: "Wankhede Stadium, Mumbai", city: "Mumbai" },
    };
    expect(releaseRecordOfVenue([registered, spelled, located, renamed])).toMatchObject({
      name: "Wankhede Stadium, Mumbai",
      otherNames: ["Wankhede Stadium"],
      latitude: null,
      longitude: null,
    });
  });
});
