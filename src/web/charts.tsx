import type { InningsStatistic } from "../read-api/schemas/fixture-statistics.js";
import { type DailyUsage, requestsOn } from "../usage/summary.js";
import { count } from "./format.js";

/**
 * The charts cricket readers look at, drawn on the server as SVG (no script): the worm
 * (cumulative runs by over, one line an innings) and the Manhattan (runs in each over, wickets
 * marked); and an administrator's, a consumer's requests a day. Pure: figures in, markup out.
 * Each has a text alternative, and the tables beside them hold the same numbers.
 */

const WIDTH = 640;
const HEIGHT = 260;
const PAD = { left: 40, right: 12, top: 40, bottom: 32 };
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;
/** Innings colours, distinguishable in greyscale and by most colour-blind readers; dashes tell them apart too. */
const SERIES = [
  { stroke: "#0b6e4f", dash: "" },
  { stroke: "#b3591a", dash: "6 3" },
  { stroke: "#3b4cc0", dash: "2 3" },
  { stroke: "#7a1f5c", dash: "8 3 2 3" },
];

/** A round step for an axis running to `max`: about five ticks. */
export function tickStep(max: number): number {
  const rough = Math.max(max, 1) / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  return ([1, 2, 5, 10].find((m) => m * magnitude >= rough) ?? 10) * magnitude;
}

const ticks = (max: number) => {
  const step = tickStep(max);
  return Array.from({ length: Math.floor(max / step) + 1 }, (_, i) => i * step);
};

/** A labelled place on the x axis, in the axis' units. */
type XTick = { at: number; label: string };

function Axes({
  maxX,
  maxY,
  xLabel,
  yLabel,
  xTicks = ticks(maxX).map((v) => ({ at: v, label: String(v) })),
}: {
  maxX: number;
  maxY: number;
  xLabel: string;
  yLabel: string;
  xTicks?: readonly XTick[];
}) {
  const y = (v: number) => PAD.top + PLOT_H - (v / maxY) * PLOT_H;
  return (
    <g font-size="11" fill="#55606e">
      {ticks(maxY).map((v) => (
        <g>
          <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(v)} y2={y(v)} stroke="#e3e7eb" />
          <text x={PAD.left - 6} y={y(v) + 4} text-anchor="end">
            {v}
          </text>
        </g>
      ))}
      {xTicks.map(({ at, label }) => (
        <text x={PAD.left + (at / maxX) * PLOT_W} y={HEIGHT - PAD.bottom + 14} text-anchor="middle">
          {label}
        </text>
      ))}
      <text x={PAD.left + PLOT_W / 2} y={HEIGHT - 4} text-anchor="middle">
        {xLabel}
      </text>
      <text x={12} y={PAD.top + PLOT_H / 2} text-anchor="middle" transform={`rotate(-90 12 ${PAD.top + PLOT_H / 2})`}>
        {yLabel}
      </text>
    </g>
  );
}

const inningsName = (i: InningsStatistic) =>
  `${i.battingCompetitor.name ?? "Unknown team"}${i.superOver ? " (super over)" : ""}`;

function Legend({ innings }: { innings: readonly InningsStatistic[] }) {
  return (
    <g font-size="12" fill="#1b2430">
      {innings.map((i, n) => {
        const series = SERIES[n % SERIES.length] ?? SERIES[0];
        return (
          <g transform={`translate(${PAD.left + (n % 2) * 280} ${10 + Math.floor(n / 2) * 16})`}>
            <line
              x1={0}
              x2={18}
              y1={0}
              y2={0}
              stroke={series?.stroke}
              stroke-width="3"
              stroke-dasharray={series?.dash}
            />
            <text x={24} y={4}>
              {inningsName(i)}
            </text>
          </g>
        );
      })}
    </g>
  );
}

/** The worm: each innings' total after every over. */
export function Worm({ innings }: { innings: readonly InningsStatistic[] }) {
  const main = innings.filter((i) => !i.superOver);
  const maxOvers = Math.max(1, ...main.map((i) => i.overs.overs.length));
  const maxRuns = Math.max(10, ...main.map((i) => i.total.runs));
  const x = (over: number) => PAD.left + (over / maxOvers) * PLOT_W;
  const y = (runs: number) => PAD.top + PLOT_H - (runs / maxRuns) * PLOT_H;
  const summary = main.map((i) => `${inningsName(i)} ${i.total.runs}/${i.total.wickets} in ${i.total.overs} overs`);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="worm-title">
        <title id="worm-title">{`Worm: runs by over. ${summary.join("; ")}.`}</title>
        <Axes maxX={maxOvers} maxY={maxRuns} xLabel="Overs" yLabel="Runs" />
        {main.map((i, n) => {
          const series = SERIES[n % SERIES.length] ?? SERIES[0];
          const points = [[0, 0] as const, ...i.overs.overs.map((o) => [o.overNumber + 1, o.cumulativeRuns] as const)];
          return (
            <g>
              <polyline
                points={points.map(([o, r]) => `${x(o).toFixed(1)},${y(r).toFixed(1)}`).join(" ")}
                fill="none"
                stroke={series?.stroke}
                stroke-width="2.5"
                stroke-dasharray={series?.dash}
              />
              {i.overs.overs
                .filter((o) => o.wickets > 0)
                .map((o) => (
                  <circle cx={x(o.overNumber + 1)} cy={y(o.cumulativeRuns)} r="4" fill={series?.stroke} />
                ))}
            </g>
          );
        })}
        <Legend innings={main} />
      </svg>
      <figcaption>Worm: the total after each over; a dot marks an over in which a wicket fell.</figcaption>
    </figure>
  );
}

/** Whether a Manhattan says anything: one or two innings a side would crowd it past reading (a Test's four). */
export const hasManhattan = (innings: readonly InningsStatistic[]) => innings.filter((i) => !i.superOver).length <= 2;

/** The Manhattan: runs in each over, innings side by side, wickets marked above the bar. */
export function Manhattan({ innings }: { innings: readonly InningsStatistic[] }) {
  const main = innings.filter((i) => !i.superOver);
  const maxOvers = Math.max(1, ...main.map((i) => i.overs.overs.length));
  const maxRuns = Math.max(6, ...main.flatMap((i) => i.overs.overs.map((o) => o.runs)));
  const slot = PLOT_W / maxOvers;
  const bar = Math.max(1, (slot - 2) / Math.max(1, main.length));
  const y = (runs: number) => PAD.top + PLOT_H - (runs / (maxRuns + 2)) * PLOT_H;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="manhattan-title">
        <title id="manhattan-title">{`Manhattan: runs in each over of ${main.map(inningsName).join(" and ")}.`}</title>
        <Axes maxX={maxOvers} maxY={maxRuns + 2} xLabel="Over" yLabel="Runs in the over" />
        {main.map((i, n) => {
          const series = SERIES[n % SERIES.length] ?? SERIES[0];
          return (
            <g fill={series?.stroke}>
              {i.overs.overs.map((o) => {
                const left = PAD.left + o.overNumber * slot + 1 + n * bar;
                return (
                  <g>
                    <rect
                      x={left.toFixed(1)}
                      y={y(o.runs).toFixed(1)}
                      width={bar.toFixed(1)}
                      height={(PAD.top + PLOT_H - y(o.runs)).toFixed(1)}
                    >
                      <title>{`${inningsName(i)}, over ${o.overNumber + 1}: ${o.runs} runs${o.wickets ? `, ${o.wickets} wicket${o.wickets > 1 ? "s" : ""}` : ""}`}</title>
                    </rect>
                    {o.wickets > 0 ? (
                      <text
                        x={(left + bar / 2).toFixed(1)}
                        y={(y(o.runs) - 3).toFixed(1)}
                        font-size="10"
                        text-anchor="middle"
                      >
                        {"W".repeat(o.wickets)}
                      </text>
                    ) : null}
                  </g>
                );
              })}
            </g>
          );
        })}
        <Legend innings={main} />
      </svg>
      <figcaption>Manhattan: runs in each over; W above a bar for each wicket in it.</figcaption>
    </figure>
  );
}

/** Status classes, each its colour: success green, a client's refusal amber, the server's failure red. */
const STATUS_CLASSES = [
  { statusClass: "2xx", fill: "#0b6e4f" },
  { statusClass: "3xx", fill: "#3b4cc0" },
  { statusClass: "4xx", fill: "#b3591a" },
  { statusClass: "5xx", fill: "#a4161a" },
] as const;

/** A consumer's requests a day, a bar a date stacked by status class; the axis names every seventh date. */
export function UsageChart({ days }: { days: readonly DailyUsage[] }) {
  const maxRequests = Math.max(10, ...days.map(requestsOn));
  const slot = PLOT_W / Math.max(1, days.length);
  const y = (requests: number) => (requests / maxRequests) * PLOT_H;
  const all = days.reduce((sum, day) => sum + requestsOn(day), 0);
  const shown = STATUS_CLASSES.map(({ statusClass }) => ({
    statusClass,
    requests: days.reduce((sum, day) => sum + (day.requests[statusClass] ?? 0), 0),
  })).filter((c) => c.requests > 0);
  const span = days.length > 0 ? `${days[0]?.date} to ${days.at(-1)?.date}` : "no dates";
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="usage-title">
        <title id="usage-title">{`Requests a day, ${span}: ${count(all)} in all${shown.map((c) => `, ${count(c.requests)} ${c.statusClass}`).join("")}.`}</title>
        <Axes
          maxX={days.length}
          maxY={maxRequests}
          xLabel="UTC date"
          yLabel="Requests"
          xTicks={days.flatMap((day, n) => (n % 7 === 0 ? [{ at: n + 0.5, label: day.date.slice(5) }] : []))}
        />
        {days.map((day, n) => {
          let base = PAD.top + PLOT_H;
          return (
            <g>
              {STATUS_CLASSES.map(({ statusClass, fill }) => {
                const requests = day.requests[statusClass] ?? 0;
                if (requests === 0) return null;
                base -= y(requests);
                return (
                  <rect
                    x={(PAD.left + n * slot + 1).toFixed(1)}
                    y={base.toFixed(1)}
                    width={Math.max(1, slot - 2).toFixed(1)}
                    height={y(requests).toFixed(1)}
                    fill={fill}
                  >
                    <title>{`${day.date}: ${count(requests)} ${statusClass}`}</title>
                  </rect>
                );
              })}
            </g>
          );
        })}
        <g font-size="12" fill="#1b2430">
          {STATUS_CLASSES.map(({ statusClass, fill }, n) => (
            <g transform={`translate(${PAD.left + n * 90} 14)`}>
              <rect x={0} y={-9} width={12} height={12} fill={fill} />
              <text x={18} y={2}>
                {statusClass}
              </text>
            </g>
          ))}
        </g>
      </svg>
      <figcaption>Requests a day by status class, summed over the consumer's keys (UTC dates).</figcaption>
    </figure>
  );
}

/** A bar a season, labelled by season (every few when there are many): a player's figure over the years. */
export function SeasonBars({
  id,
  title,
  yLabel,
  seasons,
}: {
  /** Unique on the page: the chart's title is referred to by it. */
  id: string;
  title: string;
  yLabel: string;
  seasons: readonly { label: string; value: number }[];
}) {
  const maxValue = Math.max(5, ...seasons.map((s) => s.value));
  const slot = PLOT_W / Math.max(1, seasons.length);
  const every = Math.ceil(seasons.length / 12);
  const height = (value: number) => (value / maxValue) * PLOT_H;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={id}>
        <title id={id}>{`${title}: ${seasons.map((s) => `${s.label} ${s.value}`).join(", ")}.`}</title>
        <Axes
          maxX={seasons.length}
          maxY={maxValue}
          xLabel="Season"
          yLabel={yLabel}
          xTicks={seasons.flatMap((s, n) => (n % every === 0 ? [{ at: n + 0.5, label: s.label }] : []))}
        />
        <g fill={SERIES[0]?.stroke}>
          {seasons.map((s, n) => (
            <rect
              x={(PAD.left + n * slot + slot * 0.15).toFixed(1)}
              y={(PAD.top + PLOT_H - height(s.value)).toFixed(1)}
              width={(slot * 0.7).toFixed(1)}
              height={height(s.value).toFixed(1)}
            >
              <title>{`${s.label}: ${s.value}`}</title>
            </rect>
          ))}
        </g>
        <text x={PAD.left} y={16} font-size="13" fill="#1b2430">
          {title}
        </text>
      </svg>
    </figure>
  );
}
