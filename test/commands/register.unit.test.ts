import { describe, it } from "vitest";
import { addTerms, registerNamed, registerOnce } from "../../src/commands/reference/register.js";
import { vocabularyCatalogue } from "../../streams/vocabulary.js";
import { spec } from "../support/decider.js";

const saini = {
  kind: "Participant" as const,
  id: "p1",
  registration: { sourceIds: ["cricsheet:participant:abc12345"] },
};

describe("registering a named entity", () => {
  it("registers it under the first name it is met with", () =>
    spec(registerNamed)
      .given([])
      .when({ ...saini, name: "NA Saini" })
      .thenEmits([
        {
          type: "ParticipantRegistered",
          data: { participantId: "p1", name: "NA Saini", sourceIds: ["cricsheet:participant:abc12345"] },
        },
      ]));

  it("adds a name it is met under for the first time", () =>
    spec(registerNamed)
      .given([{ type: "ParticipantRegistered", data: { participantId: "p1", name: "NA Saini", sourceIds: [] } }])
      .when({ ...saini, name: "Navdeep Saini" })
      .thenEmits([{ type: "ParticipantNameAdded", data: { participantId: "p1", name: "Navdeep Saini" } }]));

  it("changes nothing when met again under a known name", () =>
    spec(registerNamed)
      .given([
        { type: "ParticipantRegistered", data: { participantId: "p1", name: "NA Saini", sourceIds: [] } },
        { type: "ParticipantNameAdded", data: { participantId: "p1", name: "Navdeep Saini" } },
      ])
      .when({ ...saini, name: "Navdeep Saini" })
      .thenEmits([]));
});

describe("registering once and vocabulary terms", () => {
  const season = { type: "SeasonRegistered", data: { seasonId: "s1", competitionId: "c1", label: "2016" } };
  it("registers a season once", () => spec(registerOnce).given([]).when(season).thenEmits([season]));
  it("ignores a second registration", () => spec(registerOnce).given([season]).when(season).thenEmits([]));

  const caught = vocabularyCatalogue.event({
    type: "VocabularyTermAdded",
    data: { vocabulary: "dismissal_kind", term: "caught" },
  });
  it("adds new terms, each once", () =>
    spec(addTerms)
      .given([])
      .when({ vocabulary: "dismissal_kind", terms: ["caught", "caught"] })
      .thenEmits([caught]));
  it("adds only the terms it does not hold yet", () =>
    spec(addTerms)
      .given([caught])
      .when({ vocabulary: "dismissal_kind", terms: ["caught", "bowled"] })
      .thenEmits([{ type: "VocabularyTermAdded", data: { vocabulary: "dismissal_kind", term: "bowled" } }]));
});
