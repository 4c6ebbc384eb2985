import type { Sql } from "../../db/database.js";
import type { FixtureStatistics } from "../../statistics/fixture-statistics.js";
import type {
  AnyStatistic,
  FixtureStatisticsDocument,
  InningsContext,
  InningsStatistic,
  ResultStatistic,
} from "../schemas/fixture-statistics.js";
import { type SquadMember, squadOf } from "./fixtures.js";

/**
 * A fixture's statistics as the `statistics` projector stored them (`fixture_statistics`),
 * shaped into the public document: every statistic with its `statisticId` and `type`, names
 * beside ids, and the squad members who did not bat.
 */
type CompetitorRef = { competitorId: string; name: string | null };

/** What a cached representation depends on: the fixture version and the change the statistics reflect. */
export type StatisticsVersions = { version: number; sourceRevision: number | null };

/** The fixture's version and its statistics' source revision (null before they are derived); undefined for no such fixture. */
export async function statisticsVersions(sql: Sql, fixtureId: string): Promise<StatisticsVersions | undefined> {
  const [row] = await sql<{ version: number; source_revision: number | null }[]>`
    select coalesce(sv.revision, 0)::int as version, fs.source_revision
    from fixture f
    left join stream_version sv on sv.stream_id = 'fixture-' || f.fixture_id
    left join fixture_statistics fs on fs.fixture_id = f.fixture_id
    where f.fixture_id = ${fixtureId}`;
  return row ? { version: row.version, sourceRevision: row.source_revision } : undefined;
}

export type LoadedStatistics = StatisticsVersions & { document: FixtureStatisticsDocument | null };

/** The public document with the versions it was read at; `document` null while the statistics are not derived yet. */
export async function loadFixtureStatistics(sql: Sql, fixtureId: string): Promise<LoadedStatistics | undefined> {
  const [row] = await sql<
    {
      version: number;
      source_revision: number | null;
      competitors: CompetitorRef[];
      statistics: FixtureStatistics | null;
      squad: SquadMember[];
    }[]
  >`
    select coalesce(sv.revision, 0)::int as version, fs.source_revision, f.competitors, fs.statistics,
           case when fs.statistics is null then '[]'::json else ${squadOf(sql)} end as squad
    from fixture f
    left join stream_version sv on sv.stream_id = 'fixture-' || f.fixture_id
    left join fixture_statistics fs on fs.fixture_id = f.fixture_id
    where f.fixture_id = ${fixtureId}`;
  if (!row) return undefined;
  const versions = { version: row.version, sourceRevision: row.source_revision };
  if (!row.statistics) return { ...versions, document: null };
  return { ...versions, document: toDocument(row.statistics, row.competitors, row.squad) };
}

function toDocument(
  stored: FixtureStatistics,
  competitors: readonly CompetitorRef[],
  squad: readonly SquadMember[],
): FixtureStatisticsDocument {
  const competitor = (id: string | null): CompetitorRef | null =>
    id === null ? null : { competitorId: id, name: competitors.find((c) => c.competitorId === id)?.name ?? null };
  const result = stored.result;
  const resultStatistic: ResultStatistic = {
    statisticId: "result",
    type: "result",
    result: result?.result ?? null,
    winner: competitor(result?.winnerId ?? null),
    by: result?.by ?? null,
    method: result?.method ?? null,
    tieBreak: result?.tieBreak ?? null,
    tieBreakWinner: competitor(result?.tieBreakWinnerId ?? null),
    summary: result?.summary ?? null,
  };
  return {
    fixtureId: stored.fixtureId,
    completeness: {
      statisticId: "completeness",
      type: "completeness",
      state: stored.completeness.state,
      issues: stored.completeness.issues.map((i) => ({ code: i.code, inningsId: i.inningsId, message: i.message })),
    },
    result: resultStatistic,
    innings: stored.innings.map((card): InningsStatistic => {
      const id = `innings-${card.ordinal}`;
      const names = new Map(card.batting.map((b) => [b.participantId, b.name]));
      const batted = new Set(card.batting.map((b) => b.participantId));
      return {
        statisticId: id,
        type: "innings",
        inningsId: card.inningsId,
        ordinal: card.ordinal,
        battingCompetitor: competitor(card.battingCompetitorId) as CompetitorRef,
        bowlingCompetitor: competitor(card.bowlingCompetitorId) as CompetitorRef,
        superOver: card.superOver,
        batting: {
          statisticId: `${id}-batting`,
          type: "batting",
          lines: card.batting.map((b) => ({
            statisticId: `${id}-batter-${b.participantId}`,
            type: "batter",
            participantId: b.participantId,
            name: b.name,
            position: b.position,
            runs: b.runs,
            balls: b.balls,
            fours: b.fours,
            sixes: b.sixes,
            strikeRate: b.strikeRate,
            dismissed: b.dismissed,
            howOut: b.howOut,
            dismissalKind: b.dismissalKind,
          })),
          didNotBat: squad
            .filter((m) => m.competitor_id === card.battingCompetitorId && !batted.has(m.participant_id))
            .map((m) => ({ participantId: m.participant_id, name: m.name })),
        },
        bowling: {
          statisticId: `${id}-bowling`,
          type: "bowling",
          lines: card.bowling.map((b) => ({
            statisticId: `${id}-bowler-${b.participantId}`,
            type: "bowler",
            participantId: b.participantId,
            name: b.name,
            overs: b.overs,
            balls: b.legalBalls,
            maidens: b.maidens,
            runs: b.runs,
            wickets: b.wickets,
            economy: b.economy,
            wides: b.wides,
            noBalls: b.noBalls,
            dots: b.dots,
            fours: b.fours,
            sixes: b.sixes,
          })),
        },
        extras: {
          statisticId: `${id}-extras`,
          type: "extras",
          wides: card.extras.wides,
          noBalls: card.extras.noBalls,
          byes: card.extras.byes,
          legByes: card.extras.legByes,
          penalty: card.extras.penalty,
          total: card.extras.total,
        },
        total: {
          statisticId: `${id}-total`,
          type: "total",
          runs: card.total.runs,
          wickets: card.total.wickets,
          overs: card.total.overs,
          legalBalls: card.total.legalBalls,
          runRate: card.total.runRate,
          declared: card.total.declared,
          target: card.target ? { runs: card.target.runs, overs: card.target.overs } : null,
        },
        fallOfWickets: {
          statisticId: `${id}-fall-of-wickets`,
          type: "fall-of-wickets",
          wickets: card.fallOfWickets.map((f) => ({
            wicket: f.wicket,
            score: f.score,
            participantId: f.participantId,
            name: f.name,
            overs: f.overs,
          })),
        },
        partnerships: {
          statisticId: `${id}-partnerships`,
          type: "partnerships",
          partnerships: card.partnerships.map((p) => ({
            wicket: p.wicket,
            runs: p.runs,
            balls: p.balls,
            batters: p.batters.map((b) => ({ participantId: b, name: names.get(b) ?? null })),
          })),
        },
        overs: {
          statisticId: `${id}-overs`,
          type: "overs",
          overs: card.perOver.map((o) => ({
            overNumber: o.overNumber,
            runs: o.runs,
            wickets: o.wickets,
            cumulativeRuns: o.cumulativeRuns,
            cumulativeWickets: o.cumulativeWickets,
          })),
        },
      };
    }),
  };
}

export type LocatedStatistic = { statistic: AnyStatistic; innings: InningsContext | null };

/** Every statistic of the document, each with the innings it belongs to (null for result and completeness). */
export function everyStatistic(document: FixtureStatisticsDocument): LocatedStatistic[] {
  const located: LocatedStatistic[] = [
    { statistic: document.result, innings: null },
    { statistic: document.completeness, innings: null },
  ];
  for (const inn of document.innings) {
    const innings: InningsContext = {
      inningsId: inn.inningsId,
      ordinal: inn.ordinal,
      statisticId: inn.statisticId,
      battingCompetitor: inn.battingCompetitor,
      bowlingCompetitor: inn.bowlingCompetitor,
      superOver: inn.superOver,
    };
    const at = (statistic: AnyStatistic) => located.push({ statistic, innings });
    at(inn);
    at(inn.batting);
    for (const line of inn.batting.lines) at(line);
    at(inn.bowling);
    for (const line of inn.bowling.lines) at(line);
    for (const s of [inn.extras, inn.total, inn.fallOfWickets, inn.partnerships, inn.overs]) at(s);
  }
  return located;
}

export const findStatistic = (document: FixtureStatisticsDocument, statisticId: string) =>
  everyStatistic(document).find((s) => s.statistic.statisticId === statisticId);

/** The statistic and every statistic nested in it (an innings' cards and lines, a card's lines). */
export function statisticsWithin(document: FixtureStatisticsDocument, target: LocatedStatistic): LocatedStatistic[] {
  const { statistic, innings } = target;
  const sameInnings = (s: LocatedStatistic) => s.innings?.inningsId === innings?.inningsId;
  const nested: Partial<Record<AnyStatistic["type"], AnyStatistic["type"]>> = { batting: "batter", bowling: "bowler" };
  return everyStatistic(document).filter(
    (s) =>
      s.statistic === statistic ||
      (statistic.type === "innings" && sameInnings(s)) ||
      (nested[statistic.type] === s.statistic.type && sameInnings(s)),
  );
}
