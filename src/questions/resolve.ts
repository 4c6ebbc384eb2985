import type { Sql } from "../db/database.js";
import { playingSpans, withFiguresIn } from "../read-api/queries/question-facts.js";
import type { CompetitionReference, ParticipantReference, SeasonReference } from "./definition.js";
import { competitionWords } from "./paraphrase.js";
import {
  type Competition,
  competitionsNamed,
  type Season,
  seasonForm,
  seasonLabel,
  seasonsNamed,
  type Vocabulary,
} from "./vocabulary.js";

/**
 * Turning the entities a definition names into ids. A name that matches nothing, or more
 * than one entity, is an outcome for the client (`Unmatched`, `Ambiguity`), never an error
 * and never a guess.
 */
export type Entity = "question" | "competition" | "season" | "participant" | "statistic";
export type Candidate = { id: string; label: string };
export type Unmatched = { entity: Entity; text: string; message: string };
export type Ambiguity = {
  entity: Entity;
  text: string;
  message: string;
  candidates: Candidate[];
  candidateCount: number;
};
export type Resolution<T> = { found: T } | { unmatched: Unmatched } | { ambiguity: Ambiguity };

/** At most this many candidates are listed; `candidateCount` says how many there were. */
export const MAX_CANDIDATES = 10;

export const ambiguity = (
  entity: Entity,
  text: string,
  what: string,
  candidates: Candidate[],
): { ambiguity: Ambiguity } => ({
  ambiguity: {
    entity,
    text,
    message: `"${text}" could be any of ${candidates.length} ${what}; ask again with one of their ids`,
    candidates: candidates.slice(0, MAX_CANDIDATES),
    candidateCount: candidates.length,
  },
});

const unmatched = (entity: Entity, text: string, message: string) => ({ unmatched: { entity, text, message } });

export function resolveCompetition(vocabulary: Vocabulary, ref: CompetitionReference): Resolution<Competition> {
  if ("competitionId" in ref) {
    const found = vocabulary.competitions.find((c) => c.id === ref.competitionId);
    return found ? { found } : unmatched("competition", ref.competitionId, "No competition has this id");
  }
  const named = competitionsNamed(vocabulary, ref.name);
  if (named.length === 1) return { found: named[0] as Competition };
  if (named.length === 0) return unmatched("competition", ref.name, "No competition is known by this name");
  return ambiguity(
    "competition",
    ref.name,
    "competitions",
    named.map((c) => ({ id: c.id, label: c.name })),
  );
}

export function resolveSeason(vocabulary: Vocabulary, ref: SeasonReference): Resolution<Season> {
  if ("seasonId" in ref) {
    const found = [...vocabulary.seasons.values()].flat().find((s) => s.id === ref.seasonId);
    return found ? { found } : unmatched("season", ref.seasonId, "No season has this id");
  }
  let competition: Competition | undefined;
  if (ref.competition) {
    const resolved = resolveCompetition(vocabulary, ref.competition);
    if (!("found" in resolved)) return resolved;
    competition = resolved.found;
  }
  if ("ordinal" in ref) return seasonByOrdinal(vocabulary, competition as Competition, ref.ordinal);
  const text = ref.competition ? `${competitionWords(ref.competition)} ${ref.name}` : ref.name;
  const form = seasonForm(ref.name);
  const named = form ? seasonsNamed(vocabulary, form, competition ? [competition.id] : undefined) : [];
  if (named.length === 1) return { found: named[0] as Season };
  if (named.length === 0)
    return unmatched(
      "season",
      text,
      competition ? `${competition.name} has no season ${ref.name}` : `No competition has a season ${ref.name}`,
    );
  return ambiguity(
    "season",
    text,
    "seasons",
    named.map((s) => ({ id: s.id, label: seasonLabel(vocabulary, s) })),
  );
}

function seasonByOrdinal(vocabulary: Vocabulary, competition: Competition, ordinal: number): Resolution<Season> {
  const seasons = vocabulary.seasons.get(competition.id) ?? [];
  const found = ordinal > 0 ? seasons[ordinal - 1] : seasons[seasons.length + ordinal];
  if (found) return { found };
  return unmatched(
    "season",
    `${competition.name} ${ordinal}`,
    `${competition.name} has ${seasons.length} season${seasons.length === 1 ? "" : "s"}`,
  );
}

export type ScopeKey = { type: "season" | "competition"; id: string } | { type: "career" };
export type Participant = { participantId: string; name: string };

/**
 * A player by id or by name. A name several players share is narrowed to those with an
 * aggregate in the scope asked about (`Kohli` in IPL 2016 is V Kohli; T Kohli played only in
 * 2008): whoever has no figures there cannot be the one meant.
 */
export async function resolveParticipant(
  sql: Sql,
  vocabulary: Vocabulary,
  ref: ParticipantReference,
  scope: ScopeKey,
): Promise<Resolution<Participant>> {
  if ("participantId" in ref) {
    const name = vocabulary.participantNames.get(ref.participantId);
    return name !== undefined
      ? { found: { participantId: ref.participantId, name } }
      : unmatched("participant", ref.participantId, "No participant has this id");
  }
  let ids = vocabulary.participants.find(ref.name);
  if (ids.length === 0) return unmatched("participant", ref.name, "No player is known by this name");
  if (ids.length > 1 && scope.type !== "career") {
    const within = await withFiguresIn(sql, scope, ids);
    if (within.length > 0) ids = within;
  }
  if (ids.length === 1) {
    const participantId = ids[0] as string;
    return { found: { participantId, name: vocabulary.participantNames.get(participantId) ?? participantId } };
  }
  return ambiguity("participant", ref.name, "players", await playerCandidates(sql, vocabulary, ids));
}

/**
 * Players as a client can tell them apart: "Harmeet Singh, 2009–2013, 14 matches", most
 * matches first.
 */
async function playerCandidates(sql: Sql, vocabulary: Vocabulary, ids: string[]): Promise<Candidate[]> {
  const found = await playingSpans(sql, ids);
  return ids
    .map((id) => {
      const r = found.get(id);
      const name = vocabulary.participantNames.get(id) ?? id;
      const span = !r?.first ? "" : r.first === r.last ? `, ${r.first}` : `, ${r.first}–${r.last}`;
      const matches = r?.matches ?? 0;
      return { id, label: `${name}${span}, ${matches} match${matches === 1 ? "" : "es"}`, matches };
    })
    .sort((a, b) => b.matches - a.matches || a.label.localeCompare(b.label))
    .map(({ id, label }) => ({ id, label }));
}
