import { createServer, type Server, type Socket } from "node:net";
import type { PGlite } from "@electric-sql/pglite";

/**
 * Serves one PGlite instance to many wire-protocol clients (the API's pool and local CLI
 * processes) over TCP.
 *
 * PGlite has a single backend, so clients must take turns. The unit of a turn is a whole
 * protocol exchange, every message up to and including a Sync or simple Query, never a single
 * message: interleaving Parse/Bind/Execute of two clients corrupts the unnamed portal (the
 * upstream pglite-socket multiplexer does exactly that under load). While a client holds an
 * open transaction (its last ReadyForQuery said 'T' or 'E'), or is between a Flush and the
 * Sync that ends its exchange, no other client gets a turn, so transactions stay isolated. A
 * client that disconnects mid-transaction is rolled back.
 */

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const GSSENC_REQUEST = 80877104;
const PROTOCOL_3 = 196608;
const ROLLBACK = queryMessage("ROLLBACK");

type Turn = { client: Client; bytes: Uint8Array; done: () => void };

class Client {
  private buffered = Buffer.alloc(0);
  private pending: Buffer[] = [];
  private started = false;
  inTransaction = false;
  midExchange = false;
  closed = false;

  constructor(
    readonly socket: Socket,
    private readonly enqueue: (client: Client, bytes: Uint8Array) => Promise<void>,
  ) {}

  /** Splits the byte stream into messages and hands complete exchanges to the queue in order. */
  async receive(chunk: Buffer): Promise<void> {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    for (;;) {
      const message = this.takeMessage();
      if (!message) return;
      if (message === "handled") continue;
      const type = this.started ? message[0] : 0;
      if (!this.started) this.started = true;
      if (type === 0x58 /* X: Terminate */) {
        this.socket.end();
        return;
      }
      this.pending.push(message);
      // A startup packet, Sync, Query or Flush ends an exchange the backend answers as a whole.
      if (type === 0 || type === 0x53 || type === 0x51 || type === 0x48) {
        const exchange = Buffer.concat(this.pending);
        this.pending = [];
        await this.enqueue(this, exchange);
      }
    }
  }

  private takeMessage(): Buffer | "handled" | undefined {
    const b = this.buffered;
    if (!this.started) {
      if (b.length < 8) return undefined;
      const length = b.readInt32BE(0);
      if (b.length < length) return undefined;
      const code = b.readInt32BE(4);
      this.buffered = b.subarray(length);
      if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
        this.socket.write("N");
        return "handled";
      }
      if (code === CANCEL_REQUEST) return "handled";
      if (code !== PROTOCOL_3) {
        this.socket.destroy();
        return undefined;
      }
      return b.subarray(0, length);
    }
    if (b.length < 5) return undefined;
    const length = 1 + b.readInt32BE(1);
    if (b.length < length) return undefined;
    this.buffered = b.subarray(length);
    return b.subarray(0, length);
  }
}

/** How often, at most, the write-ahead log's growth is looked at between turns. */
const WAL_CHECK_MS = 2_000;

export type MultiplexerOptions = {
  /**
   * Write-ahead log (bytes since the last checkpoint) past which a checkpoint runs between
   * turns. PGlite is a standalone backend, and Postgres asks for a checkpoint by WAL volume
   * only under a postmaster: open, it never recycled its log (a full IPL's import beside a
   * running server left 1 GB of it, half the data directory) until it was closed.
   */
  checkpointAfterWalBytes?: number;
};

export class PGliteMultiplexer {
  private server: Server | undefined;
  private readonly queue: Turn[] = [];
  private readonly clients = new Set<Client>();
  private owner: Client | undefined;
  private running = false;
  private walCheckedAt = Date.now();

  constructor(
    private readonly db: PGlite,
    private readonly options: MultiplexerOptions = {},
  ) {}

  /** Listens on loopback; port 0 picks a free port. Resolves to the bound port. */
  async listen(port = 0, host = "127.0.0.1"): Promise<number> {
    await this.db.waitReady;
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.address();
    if (!address || typeof address === "string") throw new Error("embedded database did not bind a TCP port");
    return address.port;
  }

  async close(): Promise<void> {
    for (const client of this.clients) client.socket.destroy();
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    socket.setNoDelay(true);
    const client = new Client(socket, (c, bytes) => this.turn(c, bytes));
    this.clients.add(client);
    let receiving = Promise.resolve();
    socket.on("data", (chunk) => {
      receiving = receiving.then(() => client.receive(chunk)).catch(() => void socket.destroy());
    });
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      client.closed = true;
      this.clients.delete(client);
      this.dropTurnsOf(client);
      if (this.owner === client) void this.release(client);
    });
  }

  private turn(client: Client, bytes: Uint8Array): Promise<void> {
    return new Promise((done) => {
      this.queue.push({ client, bytes, done });
      void this.drain();
    });
  }

  private next(): Turn | undefined {
    const index = this.owner ? this.queue.findIndex((t) => t.client === this.owner) : 0;
    return index < 0 ? undefined : this.queue.splice(index, 1)[0];
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let turn = this.next(); turn; turn = this.next()) {
        await this.execute(turn);
        if (!this.owner) await this.checkpointIfDue();
      }
    } finally {
      this.running = false;
    }
  }

  private async execute({ client, bytes, done }: Turn): Promise<void> {
    let status: number | undefined;
    const chunks: Uint8Array[] = [];
    try {
      await this.db.runExclusive(() =>
        this.db.execProtocolRawStream(bytes, { onRawData: (data) => chunks.push(data.slice()) }),
      );
      const reply = Buffer.concat(chunks);
      status = lastReadyStatus(reply) ?? status;
      if (!client.closed) client.socket.write(reply);
    } catch {
      client.socket.destroy();
    } finally {
      if (status !== undefined) client.inTransaction = status !== 0x49; /* I: idle */
      // An exchange that ended on a Flush (a statement's Parse and Describe) has its Bind,
      // Execute and Sync to come: until then the backend is the client's, as in a transaction.
      client.midExchange = status === undefined;
      this.owner = client.inTransaction || client.midExchange ? client : undefined;
      if (client.closed && this.owner === client) await this.release(client);
      done();
    }
  }

  /** Between transactions only: a checkpoint inside a client's would run as part of it. */
  private async checkpointIfDue(): Promise<void> {
    const bound = this.options.checkpointAfterWalBytes;
    if (bound === undefined || Date.now() - this.walCheckedAt < WAL_CHECK_MS) return;
    this.walCheckedAt = Date.now();
    try {
      const { rows } = await this.db.query<{ wal: number }>(
        "select pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::float8 as wal from pg_control_checkpoint()",
      );
      if ((rows[0]?.wal ?? 0) > bound) await this.db.exec("checkpoint");
    } catch {
      // The next look tries again; the log only grows meanwhile.
    }
  }

  private dropTurnsOf(client: Client): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const turn = this.queue[i];
      if (turn?.client === client) {
        this.queue.splice(i, 1);
        turn.done();
      }
    }
  }

  /** Rolls back the transaction a vanished client left open, then lets the others run. */
  private async release(client: Client): Promise<void> {
    if (this.owner !== client) return;
    client.inTransaction = false;
    client.midExchange = false;
    await this.db.runExclusive(() => this.db.execProtocolRaw(ROLLBACK)).catch(() => undefined);
    this.owner = undefined;
    void this.drain();
  }
}

/** Status byte of the last ReadyForQuery ('Z') message in a backend reply, if it has one. */
function lastReadyStatus(reply: Buffer): number | undefined {
  let status: number | undefined;
  for (let at = 0; at + 5 <= reply.length; ) {
    const length = reply.readInt32BE(at + 1);
    if (reply[at] === 0x5a && length === 5) status = reply[at + 5];
    at += 1 + length;
  }
  return status;
}

function queryMessage(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`);
  const header = Buffer.alloc(5);
  header[0] = 0x51;
  header.writeInt32BE(4 + text.length, 1);
  return Buffer.concat([header, text]);
}
