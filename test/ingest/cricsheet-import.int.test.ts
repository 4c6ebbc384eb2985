import { createWriteStream, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import type { RecordedEvent } from "../../src/event-store/port.js";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import { fixtureStream } from "../../streams/fixture.js";
import { participantStream } from "../../streams/participant.js";
import { teamStream } from "../../streams/team.js";
import { vocabularyStream } from "../../streams/vocabulary.js";
import { cricsheetFile, deliveriesIn, readMatch } from "../support/cricsheet.js";
import { openTestDatabase, type TestDatabase } from "../support/databases.js";

type Delivery = {
  eventId: string;
  inningsId: string;
  sequenceNumber: number;
  overNumber: number;
  positionInOver: number;
  ballNumber: string;
  strikerId: string;
  nonStrikerId: string;
  bowlerId: string;
  runs: { offBat: number; extras: number; total: number; nonBoundary?: boolean };
  extras: Record<string, number>;
  wickets: { kind: string; playerOutId: string; fielders: { participantId: string; substitute: boolean }[] }[];
};

describe("Cricsheet import", () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let scratch: string;
  beforeAll(async () => {
    db = await openTestDatabase();
    store = new PostgresEventStore(db.sql);
    scratch = await mkdtemp(path.join(tmpdir(), "cricsheet-"));
  });
  afterAll(async () => {
    await db?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  const fixtureEvents = async (matchId: string) => store.readStream(fixtureStream(cricsheetIds.fixture(matchId)));
  const ofType = <T>(events: RecordedEvent[], type: string) =>
    events.filter((e) => e.type === type).map((e) => e.data as T);
  const person = (match: ReturnType<typeof readMatch>, name: string) =>
    cricsheetIds.participant(match.info.registry.people[name] as string);

  it("imports a tied T20I decided by a super over, keeping and flagging the super-over innings", async () => {
    const summary = await importCricsheet(store, [cricsheetFile("t20i/533292.json")]);
    expect(summary).toMatchObject({ matches: 1, imported: 1, failed: [], deliveriesWritten: 261 });

    const events = await fixtureEvents("533292");
    const innings = ofType<{ ordinal: number; superOver: boolean }>(events, "InningsOpened");
    expect(innings.map((i) => [i.ordinal, i.superOver])).toEqual([
      [0, false],
      [1, false],
      [2, true],
      [3, true],
    ]);
    expect(ofType(events, "OutcomeRecorded")).toEqual([
      expect.objectContaining({
        result: "tie",
        winnerId: null,
        tieBreak: "super over",
        tieBreakWinnerId: cricsheetIds.team("male", "international", "West Indies"),
      }),
    ]);
    const [scheduled] = ofType<Record<string, unknown>>(events, "FixtureScheduled");
    expect(scheduled).toMatchObject({
      matchType: "T20",
      gender: "male",
      teamType: "international",
      ballsPerOver: 6,
      startDate: "2012-10-01",
    });
    expect(scheduled?.source).toMatchObject({
      sourceId: "cricsheet:fixture:533292",
      revision: 3,
      dataVersion: "1.0.0",
    });
  });

  it("maps every delivery field of the file, in occurrence order", async () => {
    await importCricsheet(store, [cricsheetFile("ipl/980963.json")]);
    const match = readMatch("ipl/980963.json");
    const recorded = ofType<Delivery>(await fixtureEvents("980963"), "DeliveryRecorded");
    const inFile = deliveriesIn(match);
    expect(recorded).toHaveLength(inFile.length);

    recorded.forEach((d, i) => {
      const raw = inFile[i] as (typeof inFile)[number];
      expect(d.inningsId).toBe(cricsheetIds.innings("980963", raw.inningsIndex));
      expect([d.overNumber, d.positionInOver]).toEqual([raw.over, raw.position]);
      expect(d.strikerId).toBe(person(match, raw.batter));
      expect(d.nonStrikerId).toBe(person(match, raw.non_striker));
      expect(d.bowlerId).toBe(person(match, raw.bowler));
      expect(d.runs).toEqual({
        offBat: raw.runs.batter,
        extras: raw.runs.extras,
        total: raw.runs.total,
        ...(raw.runs.non_boundary ? { nonBoundary: true } : {}),
      });
      const extras = raw.extras ?? {};
      expect(d.extras).toEqual(
        Object.fromEntries(
          Object.entries({
            wides: extras.wides,
            noBalls: extras.noballs,
            byes: extras.byes,
            legByes: extras.legbyes,
            penalty: extras.penalty,
          }).filter(([, v]) => v !== undefined),
        ),
      );
      expect(d.wickets).toEqual(
        (raw.wickets ?? []).map((w) => ({
          kind: w.kind,
          playerOutId: person(match, w.player_out),
          fielders: (w.fielders ?? []).map((f) => ({
            participantId: person(match, f.name as string),
            substitute: f.substitute ?? false,
          })),
        })),
      );
    });
    // Sequence restarts in each innings; ball numbers repeat for wides and no-balls.
    const first = recorded.filter((d) => d.inningsId === cricsheetIds.innings("980963", 0));
    expect(first.map((d) => d.sequenceNumber)).toEqual(first.map((_, i) => i + 1));
    const substitute = recorded
      .flatMap((d) => d.wickets)
      .flatMap((w) => w.fielders)
      .filter((f) => f.substitute);
    expect(substitute.length).toBeGreaterThan(0);
  });

  it("imports a Test with a follow-on, a no result, a women's match, retired hurt and penalty runs", async () => {
    const files = [
      "tests/1322356.json",
      "t20i/1298152.json",
      "t20i_women/1173048.json",
      "ipl/980931.json",
      "t20i/1415725.json",
    ];
    const summary = await importCricsheet(store, files.map(cricsheetFile));
    expect(summary).toMatchObject({ imported: 5, failed: [] });

    const test = await fixtureEvents("1322356");
    expect(ofType(test, "DeliveryRecorded")).toHaveLength(2281);
    const batting = ofType<{ battingCompetitorId: string }>(test, "InningsOpened").map((i) => i.battingCompetitorId);
    const nz = cricsheetIds.team("male", "international", "New Zealand");
    expect(batting.slice(1, 3)).toEqual([nz, nz]); // New Zealand followed on
    expect(ofType(test, "OutcomeRecorded")).toEqual([
      expect.objectContaining({ result: "won", winnerId: nz, by: { runs: 1 } }),
    ]);

    expect(ofType(await fixtureEvents("1298152"), "OutcomeRecorded")).toEqual([
      expect.objectContaining({ result: "no result", winnerId: null }),
    ]);
    expect(ofType(await fixtureEvents("1173048"), "FixtureScheduled")).toEqual([
      expect.objectContaining({ gender: "female" }),
    ]);
    const retired = ofType<Delivery>(await fixtureEvents("980931"), "DeliveryRecorded").flatMap((d) => d.wickets);
    expect(retired.map((w) => w.kind)).toContain("retired hurt");
    const penalty = ofType<Delivery>(await fixtureEvents("1415725"), "DeliveryRecorded").filter(
      (d) => d.extras.penalty,
    );
    expect(penalty.map((d) => d.extras.penalty)).toEqual([5]);

    const kinds = (await store.readStream(vocabularyStream("dismissal_kind"))).map(
      (e) => (e.data as { term: string }).term,
    );
    expect(kinds).toEqual(expect.arrayContaining(["caught", "bowled", "run out", "retired hurt"]));
    expect(new Set(kinds).size).toBe(kinds.length);
  });

  it("reads miscounted overs whose ball count a file writes as a string", async () => {
    expect(await importCricsheet(store, [cricsheetFile("t20i_women/1338058.json")])).toMatchObject({
      imported: 1,
      failed: [],
    });
    const innings = ofType<{ miscountedOvers: { overNumber: number; balls: number }[] }>(
      await fixtureEvents("1338058"),
      "InningsOpened",
    );
    const miscounted = innings.flatMap((i) => i.miscountedOvers);
    expect(miscounted.length).toBeGreaterThan(0);
    for (const over of miscounted) expect(typeof over.balls).toBe("number");
  });

  it("imports many matches at once without their new dismissal kinds racing for the vocabulary", async () => {
    const files = [
      "odi/1384429.json",
      "tests/63963.json",
      "tests/1395704.json",
      "tests/1223869.json",
      "t20i/287862.json",
      "tests/1434290.json",
    ];
    const summary = await importCricsheet(store, files.map(cricsheetFile), { concurrency: 6 });
    expect(summary.failed).toEqual([]);
    const kinds = (await store.readStream(vocabularyStream("dismissal_kind"))).map(
      (e) => (e.data as { term: string }).term,
    );
    expect(kinds).toEqual(
      expect.arrayContaining(["timed out", "handled the ball", "obstructing the field", "retired not out"]),
    );
    expect(new Set(kinds).size).toBe(kinds.length);
  });

  it("changes nothing when the same file is imported again", async () => {
    const before = (await store.readAll({ commit: 0n, index: 0n }, 100_000)).length;
    const summary = await importCricsheet(store, [cricsheetFile("t20i/533292.json"), cricsheetFile("ipl/980963.json")]);
    expect(summary).toMatchObject({ matches: 2, imported: 0, unchanged: 2, deliveriesWritten: 0 });
    expect((await store.readAll({ commit: 0n, index: 0n }, 100_000)).length).toBe(before);
  });

  it("turns a re-issued file into corrections of exactly the deliveries that changed", async () => {
    const match = readMatch("t20i/1298152.json");
    await importCricsheet(store, [cricsheetFile("t20i/1298152.json")]);
    const ball = match.innings[0]?.overs?.[3]?.deliveries[2] as { runs: { batter: number; total: number } };
    ball.runs = { ...ball.runs, batter: ball.runs.batter + 2, total: ball.runs.total + 2 };
    match.meta.revision = 2;
    const reissued = path.join(scratch, "1298152.json");
    await writeFile(reissued, JSON.stringify(match));

    const summary = await importCricsheet(store, [reissued]);
    expect(summary).toMatchObject({ revised: 1, deliveriesWritten: 1 });
    const events = await fixtureEvents("1298152");
    const corrections = ofType<{ eventId: string; revision: number; reason: string; delivery: Delivery }>(
      events,
      "DeliveryCorrected",
    );
    expect(corrections).toHaveLength(1);
    expect(corrections[0]).toMatchObject({
      eventId: cricsheetIds.delivery(
        "1298152",
        0,
        ofType<Delivery>(events, "DeliveryRecorded").findIndex((d) => d.overNumber === 3 && d.positionInOver === 2) + 1,
      ),
      revision: 2,
      reason: "Cricsheet revision 2",
    });
    expect(corrections[0]?.delivery.runs.offBat).toBe(ball.runs.batter);
    expect(ofType(events, "FixtureSourceRevised")).toEqual([
      { revision: 2, createdOn: expect.any(String), dataVersion: expect.any(String) },
    ]);
    expect((await importCricsheet(store, [reissued])).unchanged).toBe(1);
  });

  it("matches players by register id, keeping every name one person appears under", async () => {
    await importCricsheet(store, [cricsheetFile("ipl/1359478.json"), cricsheetFile("ipl/1175356.json")]);
    const saini = readMatch("ipl/1359478.json").info.registry.people["NA Saini"] as string;
    expect(readMatch("ipl/1175356.json").info.registry.people["Navdeep Saini"]).toBe(saini);
    const events = await store.readStream(participantStream(cricsheetIds.participant(saini)));
    expect(events.map((e) => e.type)).toEqual(["ParticipantRegistered", "ParticipantNameAdded"]);
    expect(events.map((e) => (e.data as { name: string }).name).sort()).toEqual(["NA Saini", "Navdeep Saini"]);
  });

  it("adds the names Cricsheet's people register and the known-as list know a player by to the match's spelling", async () => {
    await importCricsheet(store, [cricsheetFile("wpl/1358937.json"), cricsheetFile("t20i/1415749.json")]);
    const namesOf = async (file: string, name: string) => {
      const events = await store.readStream(participantStream(person(readMatch(file), name)));
      return events.map((e) => `${e.type} ${(e.data as { name: string }).name}`);
    };
    expect(await namesOf("wpl/1358937.json", "S Rana")).toEqual([
      "ParticipantRegistered S Rana",
      "ParticipantNameAdded Sneh Rana",
    ]);
    expect(await namesOf("t20i/1415749.json", "SR Taylor")).toEqual([
      "ParticipantRegistered SR Taylor",
      "ParticipantNameAdded Steven Ryan Taylor",
    ]);
    // The register's unique name tells apart two people of one name.
    expect(await namesOf("t20i/1415749.json", "Harmeet Singh")).toEqual([
      "ParticipantRegistered Harmeet Singh",
      "ParticipantNameAdded Harmeet Singh (2)",
    ]);
    // A well-known player's known-as name, which no register holds (src/questions/known-names.ts), too.
    await importCricsheet(store, [cricsheetFile("ipl/981019.json")]);
    expect(await namesOf("ipl/981019.json", "V Kohli")).toEqual([
      "ParticipantRegistered V Kohli",
      "ParticipantNameAdded Virat Kohli",
    ]);
    // Names the register holds as the match spells them add nothing; nor does a second import.
    expect(await namesOf("t20i/1415749.json", "AU Rashid")).toEqual(["ParticipantRegistered AU Rashid"]);
    const before = (await store.head()).commit;
    await importCricsheet(store, [cricsheetFile("wpl/1358937.json")]);
    expect((await store.head()).commit).toBe(before);
  });

  it("reads zip archives and keeps a renamed team as one competitor with both names", async () => {
    const archive = path.join(scratch, "ipl.zip");
    const zip = new yazl.ZipFile();
    for (const id of ["1254061", "1082594"]) zip.addBuffer(readFileSync(cricsheetFile(`ipl/${id}.json`)), `${id}.json`);
    zip.addBuffer(Buffer.from("Cricsheet readme"), "README.txt");
    zip.end();
    await new Promise<void>((resolve) =>
      zip.outputStream.pipe(createWriteStream(archive)).on("close", () => resolve()),
    );

    const summary = await importCricsheet(store, [archive]);
    expect(summary.matches).toBe(2);
    expect(summary.failed).toEqual([]);
    const punjab = await store.readStream(teamStream(cricsheetIds.team("male", "club", "Punjab Kings")));
    expect(punjab.map((e) => [e.type, (e.data as { name: string }).name])).toEqual([
      ["TeamRegistered", "Punjab Kings"],
      ["TeamNameAdded", "Kings XI Punjab"],
    ]);
  });

  it("reports a broken or foreign file as failed, with its reason, and imports the rest", async () => {
    const broken = path.join(scratch, "900001.json");
    const foreign = path.join(scratch, "900002.json");
    await writeFile(broken, "{ not json");
    await writeFile(
      foreign,
      JSON.stringify({
        ...readMatch("t20i/1415725.json"),
        meta: { data_version: "2.0.0", created: "2024-01-01", revision: 1 },
      }),
    );
    const summary = await importCricsheet(store, [broken, foreign, cricsheetFile("odi/1144530.json")]);
    expect(summary.imported).toBe(1);
    expect(summary.failed).toEqual([
      { source: broken, reason: expect.stringContaining("not readable JSON") },
      { source: foreign, reason: expect.stringContaining("data_version") },
    ]);
    expect(await fixtureEvents("900002")).toEqual([]);
  });
});
