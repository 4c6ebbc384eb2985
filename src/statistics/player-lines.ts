import type { InningsCard } from "./innings-card.js";
import type { Delivery } from "./rules.js";

/**
 * What one player did in one innings of a fixture: the unit every aggregate and leaderboard
 * is summed from. Super-over innings produce no lines: they never count in player aggregates.
 */
export type PlayerInningsLine = {
  participantId: string;
  inningsId: string;
  batted: boolean;
  runs: number;
  balls: number;
  fours: number;
  sixes: number;
  dismissed: boolean;
  bowledBalls: number;
  maidens: number;
  runsConceded: number;
  wickets: number;
  wides: number;
  noBalls: number;
  catches: number;
  stumpings: number;
  runOuts: number;
};

/** A line without the participant and innings ids, which the projector's player_line keeps beside it. */
export type KeptLine = Omit<PlayerInningsLine, "participantId" | "inningsId">;

const empty = (participantId: string, inningsId: string): PlayerInningsLine => ({
  participantId,
  inningsId,
  batted: false,
  runs: 0,
  balls: 0,
  fours: 0,
  sixes: 0,
  dismissed: false,
  bowledBalls: 0,
  maidens: 0,
  runsConceded: 0,
  wickets: 0,
  wides: 0,
  noBalls: 0,
  catches: 0,
  stumpings: 0,
  runOuts: 0,
});

/**
 * Lines of every player who batted, bowled or fielded in an innings. Catches go to the
 * catcher (the bowler for caught and bowled), stumpings to the keeper, run outs to every
 * fielder named. A substitute fielder's dismissals stay on the scorecard ("c sub (X)") but
 * are credited to no one: by the record books' convention a substitute is not playing the
 * match, so neither the match nor what they did in the field counts in their own figures.
 */
export function playerLines(card: InningsCard, deliveries: readonly Delivery[]): PlayerInningsLine[] {
  if (card.superOver) return [];
  const lines = new Map<string, PlayerInningsLine>();
  const line = (id: string) => {
    let found = lines.get(id);
    if (!found) {
      found = empty(id, card.inningsId);
      lines.set(id, found);
    }
    return found;
  };
  for (const b of card.batting) {
    Object.assign(line(b.participantId), {
      batted: true,
      runs: b.runs,
      balls: b.balls,
      fours: b.fours,
      sixes: b.sixes,
      dismissed: b.dismissed,
    });
  }
  for (const b of card.bowling) {
    Object.assign(line(b.participantId), {
      bowledBalls: b.legalBalls,
      maidens: b.maidens,
      runsConceded: b.runs,
      wickets: b.wickets,
      wides: b.wides,
      noBalls: b.noBalls,
    });
  }
  for (const d of deliveries) {
    for (const w of d.wickets) {
      if (w.kind === "caught and bowled") line(d.bowlerId).catches += 1;
      for (const f of w.fielders) {
        if (f.substitute) continue;
        if (w.kind === "caught") line(f.participantId).catches += 1;
        else if (w.kind === "stumped") line(f.participantId).stumpings += 1;
        else if (w.kind === "run out") line(f.participantId).runOuts += 1;
      }
    }
  }
  return [...lines.values()];
}
