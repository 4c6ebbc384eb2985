import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy a test controls, between the service and a real server (PostgreSQL, Redis),
 * to stage the outages a host or network causes without touching the shared server:
 * `refuse` drops every connection and refuses new ones (a stopped server), `freeze` keeps
 * them open but passes nothing either way (a hung host, a partition), `restore` ends both.
 */
export class TcpProxy {
  private readonly pairs = new Set<Pair>();
  private mode: "open" | "refusing" | "frozen" = "open";

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async to(host: string, port: number): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = createServer((client) => proxy?.accept(client, host, port));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    proxy = new TcpProxy(server, (server.address() as { port: number }).port);
    return proxy;
  }

  /** `url` with its host and port replaced by the proxy's. */
  url(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = "127.0.0.1";
    proxied.port = String(this.port);
    return proxied.toString();
  }

  refuse(): void {
    this.mode = "refusing";
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
  }

  freeze(): void {
    this.mode = "frozen";
    for (const pair of this.pairs) hold(pair);
  }

  restore(): void {
    const wasFrozen = this.mode === "frozen";
    this.mode = "open";
    if (wasFrozen) for (const pair of this.pairs) pass(pair);
  }

  async close(): Promise<void> {
    this.refuse();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: Socket, host: string, port: number) {
    if (this.mode === "refusing") {
      client.destroy();
      return;
    }
    const upstream = connect({ host, port });
    const pair = { client, upstream };
    this.pairs.add(pair);
    // A connection made while frozen hangs too: accepted, never answered.
    if (this.mode !== "frozen") pass(pair);
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  }
}

type Pair = { client: Socket; upstream: Socket };

/** Unpiped and paused: a piped stream resumes itself when its destination drains. */
function hold({ client, upstream }: Pair) {
  client.unpipe(upstream).pause();
  upstream.unpipe(client).pause();
}

function pass({ client, upstream }: Pair) {
  client.pipe(upstream);
  upstream.pipe(client);
}
