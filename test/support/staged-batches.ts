import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { BatchValidator } from "../../src/batches/validator.js";
import type { Person } from "./account-api.js";
import { type ApiBatch, aPackageOf, sendBatch } from "./batches.js";
import { type SubmissionApi, type SubmittedEvent, validEvents } from "./submissions.js";

type PackageEvents = { innings: { events: Record<string, unknown>[] }[] }[];

/**
 * Batches validation staged, for the suites that resolve them (through the API or the
 * pages): `suite` gives the suite's API and validator once its beforeAll has made them.
 */
export function stagedBatches(suite: () => { api: SubmissionApi; validator: BatchValidator }) {
  /** A name the given people also go by. */
  const alsoCalled = (name: string, ...participantIds: string[]) =>
    suite().api.world.given({
      events: () =>
        participantIds.map((participantId) => ({
          id: randomUUID(),
          stream: `participant-${participantId}`,
          type: "ParticipantNameAdded",
          data: { participantId, name },
        })),
    });

  /**
   * A package of four deliveries whose second striker is named by a name two of the batting
   * side go by (ambiguous) and whose third by a name nobody does (unresolved); sent by a
   * submitter of the competition and validated: staged.
   */
  async function aStagedBatch() {
    const fixture = await suite().api.aFixtureToSubmitTo();
    const submitter = await suite().api.aSubmitter(suite().api.admin, fixture.season.competition.id);
    const events = validEvents(fixture, 4);
    const [, second, third] = events as [SubmittedEvent, SubmittedEvent, SubmittedEvent];
    const batters = fixture.innings[0]?.batting.players ?? [];
    const twin = batters.find((p) => p.id !== second.strikerId && p.id !== second.nonStrikerId);
    const shared = `Shared Name ${randomUUID().slice(0, 6)}`;
    await alsoCalled(shared, second.strikerId, twin?.id as string);
    const body = aPackageOf(fixture, events);
    const packageEvents = (body.fixtures as unknown as PackageEvents)[0]?.innings[0]?.events ?? [];
    packageEvents[1] = { ...packageEvents[1], striker: { context: { name: shared } } };
    packageEvents[2] = { ...packageEvents[2], striker: { context: { name: "Nobody Atall" } } };
    const batch = await validated(body, submitter);
    return { fixture, submitter, batch, second, third, path: `/api/v1/batches/${batch.batchReference}` };
  }

  /**
   * A package of three deliveries between the teams of an existing fixture, on another date
   * and under a Cricsheet match id the competition does not have: staged, its fixture
   * unresolved. Its season named at the package's head.
   */
  async function aBatchOfAnUnknownFixture(change: (fixture: Record<string, unknown>) => void = () => {}) {
    const fixture = await suite().api.aFixtureToSubmitTo();
    const submitter = await suite().api.aSubmitter(suite().api.admin, fixture.season.competition.id);
    const events = validEvents(fixture, 3);
    const match = `canon-${randomUUID().slice(0, 8)}`;
    const body = { ...aPackageOf(fixture, events), season: { context: { name: fixture.season.label } } };
    const [unknown] = body.fixtures as unknown as Record<string, unknown>[];
    if (!unknown) throw new Error("the package has a fixture");
    unknown.sourceId = `cricsheet:fixture:${match}`;
    unknown.context = { ...(unknown.context as object), date: "2031-05-17" };
    unknown.proposal = { ...(unknown.proposal as object), endDate: "2031-05-17" };
    change(unknown);
    const batch = await validated(body, submitter);
    return { fixture, submitter, events, match, batch, path: `/api/v1/batches/${batch.batchReference}` };
  }

  async function validated(
    body: unknown,
    submitter: Person,
    send = (b: unknown, token: string) => sendBatch(suite().api.api, b, { token }),
  ): Promise<ApiBatch> {
    const res = await send(body, submitter.token);
    expect(res.status, res.text).toBe(202);
    await suite().validator.drain();
    await suite().api.world.catchUp();
    return statusOf((res.body as { data: ApiBatch }).data.batchReference, submitter);
  }

  async function statusOf(batchReference: string, by: Person): Promise<ApiBatch> {
    const res = await suite().api.api.get(`/api/v1/batches/${batchReference}`, { token: by.token });
    expect(res.status, res.text).toBe(200);
    return (res.body as { data: ApiBatch }).data;
  }

  return { alsoCalled, aStagedBatch, aBatchOfAnUnknownFixture, validated, statusOf };
}
