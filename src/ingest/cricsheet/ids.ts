import { v5 as uuidv5 } from "uuid";

/**
 * Identifiers of entities that come from Cricsheet are derived from their source identity,
 * so importing the same file twice, or in another order, finds the same entities and the
 * same delivery events instead of creating new ones.
 */
const NAMESPACE = "6f0c5b8e-3d3a-4a53-9b7e-2c1d0f6a9e41";

const derive = (...parts: (string | number)[]) => uuidv5(parts.join("\u001f"), NAMESPACE);

export const cricsheetIds = {
  competition: (gender: string, name: string) => derive("competition", gender, name),
  season: (competitionId: string, label: string) => derive("season", competitionId, label),
  team: (gender: string, teamType: string, name: string) => derive("team", gender, teamType, name),
  participant: (registerId: string) => derive("participant", registerId),
  venue: (groundKey: string) => derive("venue", groundKey),
  fixture: (matchId: string) => derive("fixture", matchId),
  innings: (matchId: string, index: number) => derive("innings", matchId, index),
  delivery: (matchId: string, inningsIndex: number, sequence: number) =>
    derive("delivery", matchId, inningsIndex, sequence),
};

export const cricsheetSource = {
  competition: (name: string) => `cricsheet:competition:${name}`,
  team: (name: string) => `cricsheet:team:${name}`,
  participant: (registerId: string) => `cricsheet:participant:${registerId}`,
  venue: (name: string) => `cricsheet:venue:${name}`,
  fixture: (matchId: string) => `cricsheet:fixture:${matchId}`,
};
