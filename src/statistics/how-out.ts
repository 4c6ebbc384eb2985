import type { Wicket } from "./rules.js";

type Names = (participantId: string) => string;

/** How a batter was out, in the words of a scorecard: "c Fielder b Bowler", "run out (Fielder)". */
export function howOut(wicket: Wicket, bowlerId: string, name: Names): string {
  const bowler = name(bowlerId);
  const fielder = (i = 0) => {
    const f = wicket.fielders[i];
    if (!f) return "";
    return f.substitute ? `sub (${name(f.participantId)})` : name(f.participantId);
  };
  switch (wicket.kind) {
    case "bowled":
      return `b ${bowler}`;
    case "caught":
      return wicket.fielders.length ? `c ${fielder()} b ${bowler}` : `c ? b ${bowler}`;
    case "caught and bowled":
      return `c & b ${bowler}`;
    case "lbw":
      return `lbw b ${bowler}`;
    case "stumped":
      return `st ${fielder()} b ${bowler}`;
    case "hit wicket":
      return `hit wicket b ${bowler}`;
    case "run out": {
      const by = wicket.fielders.map((_, i) => fielder(i)).join("/");
      return by ? `run out (${by})` : "run out";
    }
    default:
      // retired hurt, retired out, obstructing the field, handled the ball, timed out…
      return wicket.kind;
  }
}
