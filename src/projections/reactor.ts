import { EventEmitter } from "node:events";
import { signalOrTimeout } from "./runner.js";

/**
 * The loop of a reactor on the log (the batch validator, the release generator): `drain`
 * whenever the projectors make progress, since its work list is a read model and new work is
 * there to find only once projected, else every `idlePollMs`, until stopped. A drain that
 * throws is reported and tried again at the next wake.
 */
export class ReactorLoop {
  private readonly wake = new EventEmitter();
  private loop: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly drain: () => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
    private readonly idlePollMs: number,
  ) {}

  /** True from `stop` on: a drain under way ends early. */
  get stopping(): boolean {
    return this.stopped;
  }

  start(projections: { onProgress(listener: () => void): () => void }): void {
    this.stopped = false;
    const unsubscribe = projections.onProgress(() => this.wake.emit("wake"));
    this.loop = (async () => {
      while (!this.stopped) {
        try {
          await this.drain();
        } catch (err) {
          this.onError(err);
        }
        await signalOrTimeout(this.wake, "wake", this.idlePollMs);
      }
      unsubscribe();
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake.emit("wake");
    await this.loop;
  }
}
