import fs from "node:fs";
import net from "node:net";

/** A port the operating system has just handed out on the loopback interface, and released. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Is `port` free to listen on at 127.0.0.1 now? */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** Where long-lived servers take their ports when the system says nothing else. */
const LASTING_PORTS = { low: 10_000, high: 32_767 };

/**
 * The ports a server that must keep its port takes (the embedded PostgreSQL server: restarted after a crash, it
 * listens where every process's pools connect): below the ephemeral range (`ip_local_port_range`, "low high"),
 * from which the system picks the local port of every outgoing connection and of every server on port 0. A port
 * from that range, freed for a moment by a dead server, can be taken by any connection the machine opens.
 */
export function lastingPortRange(ephemeralRange?: string): { low: number; high: number } {
  const ephemeralLow = Number(ephemeralRange?.trim().split(/\s+/)[0]);
  if (!Number.isInteger(ephemeralLow) || ephemeralLow <= LASTING_PORTS.low + 1_000) return LASTING_PORTS;
  return { low: LASTING_PORTS.low, high: Math.min(ephemeralLow - 1, LASTING_PORTS.high) };
}

/**
 * A free port for a server that must keep it (`lastingPortRange`), drawn at random from that range; an ephemeral
 * one (`freePort`) when no port of the range is free after a few draws.
 */
export async function freeLastingPort(random: () => number = Math.random): Promise<number> {
  let ephemeral: string | undefined;
  try {
    ephemeral = fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8");
  } catch {
    // Not Linux: macOS and Windows hand out ports from 49152 up, above the default range.
  }
  const { low, high } = lastingPortRange(ephemeral);
  for (let draw = 0; draw < 20; draw += 1) {
    const port = low + Math.floor(random() * (high - low + 1));
    if (await portIsFree(port)) return port;
  }
  return freePort();
}
