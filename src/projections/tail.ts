import { comparePositions, type EventStore, type Position, type RecordedEvent } from "../event-store/port.js";

/** Events read from the store at once to extend the tail, unless readers ask for more. */
export const FILL = 1000;
/** Events the tail keeps: enough for projectors a few batches apart to share one read. */
const KEEP = 10_000;

/** What reads the log for a projector: the tail itself, or one of its paced readers. */
export type LogReader = { readAll(after: Position, limit: number): Promise<RecordedEvent[]> };

/** A reader the tail paces (see `join`); `leave` before it stops reading, or it holds the others back. */
type PacedReader = LogReader & { leave(): void };

/**
 * The end of the log as this runner's live projectors read it. They mostly stand at the
 * same place, or a few batches apart, so the events one of them reads serve the others:
 * the store is asked once per new stretch of the log (concurrent asks share one read), not
 * once per projector, and each event's JSON is parsed once. What the store returned was a
 * stable prefix when read, so serving it later is as safe as reading it again.
 */
export class SharedTail {
  /** A contiguous stretch of the log: the events strictly after `from`, in log order. */
  private from: Position | undefined;
  private events: RecordedEvent[] = [];
  private filling: { after: Position; limit: number; read: Promise<RecordedEvent[]> } | undefined;
  /** Where each paced reader last asked to read from. */
  private readonly paced = new Map<object, Position>();
  private waiting: (() => void)[] = [];

  /**
   * `fill`: the events read from the store at once, at least the most a reader asks for, so
   * that one read serves every reader at that place whatever its batch size. `keep`: the
   * events kept behind the end when no paced reader needs more.
   */
  constructor(
    private readonly store: EventStore,
    private readonly fill = FILL,
    private readonly keep = KEEP,
  ) {}

  /**
   * A reader for a projector catching up beside others from `at`. Left to themselves, the
   * projectors that handle few events race ahead of the busy ones and each reads the whole
   * log itself: a catch-up of the IPL read it 6.7 times over. The tail keeps the stretch
   * from the slowest paced reader on (at most `keep` and three fills: a reader let through
   * under the bound reads a whole fill), and holds back one that would extend it two fills
   * or more past that reader; a reader outside the kept stretch neither waits nor holds
   * back. After `leave` it reads as an unpaced reader.
   */
  join(at: Position): PacedReader {
    const seat = {};
    this.paced.set(seat, at);
    return {
      readAll: async (after, limit) => {
        if (this.paced.has(seat)) {
          this.paced.set(seat, after);
          this.release();
          await this.admit(after);
        }
        return this.readAll(after, limit);
      },
      leave: () => {
        this.paced.delete(seat);
        this.release();
      },
    };
  }

  /** Up to `limit` events strictly after `after`, as `EventStore.readAll` answers. */
  async readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    // A reader past the kept stretch (the first, or one another runner moved on) starts a new one.
    const end = this.end();
    if (end === undefined || comparePositions(after, end) > 0) {
      this.from = after;
      this.events = [];
      this.release();
    }
    const start = this.indexAfter(after);
    if (start === undefined) return this.store.readAll(after, limit);
    if (start < this.events.length) return this.events.slice(start, start + limit);
    return (await this.extend(after, limit)).slice(0, limit);
  }

  /** Where the events after `after` begin in the kept stretch; undefined when it does not hold that place. */
  private indexAfter(after: Position): number | undefined {
    if (this.from === undefined) return undefined;
    if (comparePositions(after, this.from) === 0) return 0;
    const first = this.events[0];
    const last = this.events.at(-1);
    if (!first || !last || comparePositions(after, first.position) < 0 || comparePositions(after, last.position) > 0)
      return undefined;
    let low = 0;
    let high = this.events.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comparePositions((this.events[middle] as RecordedEvent).position, after) < 0) low = middle + 1;
      else high = middle;
    }
    // `after` must be an event's own position: between two events is not a place in this log.
    return comparePositions((this.events[low] as RecordedEvent).position, after) === 0 ? low + 1 : undefined;
  }

  /** Reads the events after the end of the kept stretch (once, whoever asks) and keeps them. */
  private async extend(after: Position, limit: number): Promise<RecordedEvent[]> {
    const filling = this.filling;
    if (filling && comparePositions(filling.after, after) === 0 && filling.limit >= limit) return filling.read;
    const size = Math.max(this.fill, limit);
    const read = this.store.readAll(after, size).then((fresh) => {
      // Kept only where it continues the stretch: a restart meanwhile may have moved on.
      const end = this.end();
      if (end !== undefined && comparePositions(end, after) === 0) {
        this.events.push(...fresh);
        this.trim();
        this.release();
      }
      return fresh;
    });
    this.filling = { after, limit: size, read };
    // Settled either way: a failed read must not be handed to every later reader.
    const settled = () => {
      if (this.filling?.read === read) this.filling = undefined;
    };
    read.then(settled, settled);
    return read;
  }

  /**
   * Waits while a read from `after` would extend the stretch two fills or more past the
   * slowest paced reader: room for that reader's batch and the next one's worth ahead of it.
   */
  private async admit(after: Position): Promise<void> {
    for (;;) {
      const end = this.end();
      const slowest = this.slowestPaced();
      if (end === undefined || slowest === undefined || comparePositions(after, end) !== 0) return;
      if (this.events.length - slowest < 2 * this.fill) return;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Wakes the readers `admit` holds: a paced reader moved on or left. */
  private release(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }

  /** Where in the kept stretch the slowest paced reader stands; undefined when none stands in it. */
  private slowestPaced(): number | undefined {
    let slowest: number | undefined;
    for (const position of this.paced.values()) {
      const index = this.indexAfter(position);
      if (index !== undefined && (slowest === undefined || index < slowest)) slowest = index;
    }
    return slowest;
  }

  private end(): Position | undefined {
    return this.events.at(-1)?.position ?? this.from;
  }

  private trim(): void {
    // What the paced readers have not read, within bounds: an unpaced reader (a rebuild)
    // extends the stretch without waiting, and a paced reader cut off reads the store.
    const unread = Math.min(this.events.length - this.keep, this.slowestPaced() ?? Number.POSITIVE_INFINITY);
    const excess = Math.max(unread, this.events.length - this.keep - 3 * this.fill);
    if (excess <= 0) return;
    this.from = (this.events[excess - 1] as RecordedEvent).position;
    this.events = this.events.slice(excess);
  }
}
