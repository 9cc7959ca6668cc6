import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serverPidOf } from "../../src/db/embedded";
import { runCli, startServe } from "../support/cli";
import { discardDataFolder } from "../support/data-folders";

/**
 * The data folder is the same from any working directory (the nearest `.memicl` holding a database, else the
 * user's own), every command says which it uses, and `memicl db remove` deletes one, never while it is used.
 */
describe("the embedded database's folder, from any working directory", () => {
  let dir: string;
  let checkout: string;
  let env: Record<string, string>;
  const defaultFolder = () => path.join(dir, "xdg", "memicl");

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-folder-"));
    // As root, the embedded server runs as another user, which must reach the data folders.
    fs.chmodSync(dir, 0o755);
    checkout = path.join(dir, "checkout");
    fs.mkdirSync(path.join(checkout, "src", "deep"), { recursive: true });
    env = { MEMICL_DATA_DIR: "", DATABASE_URL: "", XDG_DATA_HOME: path.join(dir, "xdg") };
  });
  afterAll(async () => {
    for (const folder of [defaultFolder(), path.join(checkout, ".memicl")])
      if (fs.existsSync(folder)) await discardDataFolder(folder);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("uses the user's folder from a checkout, its subfolder and its parent, and says so", async () => {
    const places = [checkout, path.join(checkout, "src", "deep"), dir];
    for (const cwd of places) {
      const result = await runCli(["migrate"], env, cwd);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`database: embedded PostgreSQL`);
      expect(result.stdout).toContain(`in ${defaultFolder()} (this user's default`);
    }
    // Nothing was created where the commands ran.
    for (const cwd of places) expect(fs.existsSync(path.join(cwd, ".memicl"))).toBe(false);
    const info = await runCli(["db", "info"], env, path.join(checkout, "src"));
    expect(info.stdout).toContain(`data folder: ${defaultFolder()} (this user's default)`);
    expect(info.stdout).toMatch(/server not running/);
  }, 90_000);

  it("finds a .memicl folder holding a database by walking up, as git finds .git", async () => {
    const local = path.join(checkout, ".memicl");
    expect((await runCli(["migrate"], { ...env, MEMICL_DATA_DIR: local }, dir)).code).toBe(0);
    const fromDeep = await runCli(["workers"], env, path.join(checkout, "src", "deep"));
    expect(fromDeep.code).toBe(0);
    expect(fromDeep.stdout).toContain(`in ${local} (found by walking up from the working directory`);
    // Above the checkout it is not found: the user's folder is used.
    const fromParent = await runCli(["workers"], env, dir);
    expect(fromParent.stdout).toContain(`in ${defaultFolder()} (this user's default`);
  }, 90_000);

  it("removes a data folder with its cluster, only when asked twice and never while a server uses it", async () => {
    const folder = path.join(dir, "removable");
    const own = { ...env, MEMICL_DATA_DIR: folder };
    const server = await startServe({ ...own, MEMICL_TEST_PROVIDER_KEY: "sk-never-in-the-engine-0123" });
    try {
      // The engine got an environment of its own, and (as root) a user of its own.
      const cluster = JSON.parse(fs.readFileSync(path.join(folder, "cluster.json"), "utf8"));
      const pid = serverPidOf(cluster.clusterDir)!;
      expect(pid).toBeGreaterThan(0);
      const environ = fs.readFileSync(`/proc/${pid}/environ`, "utf8");
      expect(environ).not.toContain("sk-never-in-the-engine-0123");
      expect(environ).not.toContain("MEMICL_");
      if (process.getuid?.() === 0) {
        const owner = fs.statSync(cluster.clusterDir).uid;
        const passwd = fs.readFileSync("/etc/passwd", "utf8").split("\n");
        expect(passwd.find((line) => line.split(":")[2] === String(owner))?.split(":")[0]).toBe("memicl-db");
      }
      const refused = await runCli(["db", "remove", "--yes"], own);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /memicl processes use this database \(pid \d+\): stop them first; nothing was removed/,
      );
      expect(fs.existsSync(path.join(folder, "cluster.json"))).toBe(true);
    } finally {
      await server.stop();
    }
    const asked = await runCli(["db", "remove"], own);
    expect(asked.code).toBe(1);
    expect(asked.stdout).toMatch(/would remove .*removable.*run again with --yes/);
    expect(fs.existsSync(folder)).toBe(true);
    const removed = await runCli(["db", "remove", "--yes"], own);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`removed ${folder}`);
    expect(fs.existsSync(folder)).toBe(false);
    const nothing = await runCli(["db", "remove", "--yes"], own);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/does not exist: nothing to remove/);
  }, 90_000);
});
