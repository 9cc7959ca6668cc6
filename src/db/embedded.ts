import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import lockfile from "proper-lockfile";
import { Logger } from "../logging/logger";

/** What the process that owns a data folder publishes so other memicl processes can use its database. */
export interface OwnerInfo {
  pid: number;
  /** host:port of the owner's PGlite socket. */
  socket: string;
  startedAt: string;
}

export interface EmbeddedServer {
  url: string;
  /** A gzipped tarball of the database files, loadable with `startInMemory(template)`. */
  dump(): Promise<Blob>;
  close(): Promise<void>;
}

/** More than any one process's pools together: each connection beyond the cap is dropped by pglite-socket. */
export const EMBEDDED_MAX_CONNECTIONS = 40;

const OWNER_FILE = "owner.json";
const LOCK_FILE = "owner.lock";

export class DataFolderInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: OwnerInfo | null,
  ) {
    super(
      `the embedded database in ${dataDir} is in use by another memicl process` +
        (owner ? ` (pid ${owner.pid}, since ${owner.startedAt})` : "") +
        "; stop it, or set MEMICL_DATA_DIR to another folder, or DATABASE_URL to a PostgreSQL server",
    );
  }
}

/** Starts PGlite on an in-memory database (tests), optionally from a dump of a prepared one. */
export async function startInMemory(template?: Blob): Promise<EmbeddedServer> {
  const db = template ? await PGlite.create({ loadDataDir: template }) : await PGlite.create();
  return serve(db, async () => {});
}

/**
 * Takes ownership of `dataDir` (a lock file refreshed every 2 s; a crashed owner's lock goes stale
 * after 10 s) and serves its PGlite database on a loopback socket. Throws `DataFolderInUseError`
 * when a live process owns it.
 */
export async function startOwner(dataDir: string, logger: Logger): Promise<EmbeddedServer> {
  fs.mkdirSync(dataDir, { recursive: true });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataDir, {
      lockfilePath: path.join(dataDir, LOCK_FILE),
      realpath: false,
      stale: 10_000,
      update: 2_000,
      onCompromised: (error) => logger.error({ err: error }, "lost the lock on the embedded data folder"),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOCKED")
      throw new DataFolderInUseError(dataDir, readOwner(dataDir));
    throw error;
  }
  try {
    const db = await PGlite.create(path.join(dataDir, "pgdata"));
    const server = await serve(db, async () => {
      fs.rmSync(path.join(dataDir, OWNER_FILE), { force: true });
      await release();
    });
    const owner: OwnerInfo = {
      pid: process.pid,
      socket: new URL(server.url).host,
      startedAt: new Date().toISOString(),
    };
    const tmp = path.join(dataDir, `${OWNER_FILE}.${process.pid}`);
    fs.writeFileSync(tmp, JSON.stringify(owner));
    fs.renameSync(tmp, path.join(dataDir, OWNER_FILE));
    return server;
  } catch (error) {
    await release();
    throw error;
  }
}

/** The URL of the owning process's socket, or null when nobody (alive) owns the folder. */
export function ownerUrl(dataDir: string): string | null {
  const owner = readOwner(dataDir);
  if (
    !owner ||
    !isAlive(owner.pid) ||
    !lockfile.checkSync(dataDir, {
      lockfilePath: path.join(dataDir, LOCK_FILE),
      realpath: false,
      stale: 10_000,
    })
  )
    return null;
  return `postgres://postgres@${owner.socket}/postgres`;
}

export function readOwner(dataDir: string): OwnerInfo | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, OWNER_FILE), "utf8")) as OwnerInfo;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function serve(db: PGlite, afterClose: () => Promise<void>): Promise<EmbeddedServer> {
  const socket = new PGLiteSocketServer({
    db,
    host: "127.0.0.1",
    port: 0,
    maxConnections: EMBEDDED_MAX_CONNECTIONS,
  });
  await socket.start();
  let closed = false;
  return {
    url: `postgres://postgres@${socket.getServerConn()}/postgres`,
    async dump() {
      const file = await db.dumpDataDir("gzip");
      return new Blob([await file.arrayBuffer()]);
    },
    async close() {
      if (closed) return;
      closed = true;
      await socket.stop();
      await db.close();
      await afterClose();
    },
  };
}
