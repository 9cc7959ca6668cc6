import net from "node:net";

/**
 * A TCP proxy in front of a PostgreSQL server that refuses connections as a full server does while `refusing` is
 * true: it answers the client's startup with PostgreSQL's ErrorResponse (FATAL 53300 "sorry, too many clients
 * already") and closes; otherwise it passes bytes through. For testing how a process waits for a full database.
 */
export class RefusingProxy {
  refusing = true;
  refused = 0;
  private server: net.Server | null = null;
  private sockets = new Set<net.Socket>();

  constructor(private readonly target: { host: string; port: number }) {}

  /** Listens on a free local port; returns it. */
  async start(): Promise<number> {
    this.server = net.createServer((client) => {
      this.sockets.add(client);
      client.on("close", () => this.sockets.delete(client));
      client.on("error", () => {});
      if (this.refusing) {
        this.refused += 1;
        // The first message is the startup packet (or an SSL request: answered "N", then the startup follows).
        client.on("data", (chunk) => {
          if (chunk.length === 8 && chunk.readUInt32BE(4) === 80877103) {
            client.write("N");
            return;
          }
          client.end(errorResponse("53300", "sorry, too many clients already"));
        });
        return;
      }
      const upstream = net.connect(this.target.port, this.target.host);
      this.sockets.add(upstream);
      upstream.on("close", () => this.sockets.delete(upstream));
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return (this.server!.address() as net.AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A PostgreSQL ErrorResponse message: severity FATAL, the SQLSTATE and the message. */
function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.concat(
    [
      ["S", "FATAL"],
      ["V", "FATAL"],
      ["C", code],
      ["M", message],
    ].map(([type, value]) => Buffer.from(`${type}${value}\0`, "utf8")),
  );
  const body = Buffer.concat([fields, Buffer.from([0])]);
  const header = Buffer.alloc(5);
  header.write("E", 0);
  header.writeUInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}
