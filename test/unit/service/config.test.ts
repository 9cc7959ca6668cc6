import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError, loadConfig } from "../../../src/config/config";
import { chooseDataDir, defaultDataDir } from "../../../src/config/data-dir";

describe("loadConfig", () => {
  it("uses the documented defaults when nothing is set", () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-config-"));
    expect(loadConfig({ HOME: "/home/ana" }, empty)).toMatchObject({
      port: 4000,
      databaseUrl: undefined,
      dataDir: "/home/ana/.local/share/memicl",
      dataDirSource: "default",
      logLevel: "info",
    });
    fs.rmSync(empty, { recursive: true });
  });

  describe("the data folder, the same from any working directory", () => {
    let root: string;
    beforeAll(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-data-dir-"));
      fs.mkdirSync(path.join(root, "checkout", ".memicl"), { recursive: true });
      fs.writeFileSync(path.join(root, "checkout", ".memicl", "cluster.json"), "{}");
      fs.mkdirSync(path.join(root, "checkout", "src", "deep"), { recursive: true });
      // A .memicl folder without a database is not one: it is walked past.
      fs.mkdirSync(path.join(root, "checkout", "src", ".memicl"));
    });
    afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

    it("takes MEMICL_DATA_DIR first, relative to the working directory", () => {
      expect(chooseDataDir({ MEMICL_DATA_DIR: "db" }, root)).toEqual({
        dataDir: path.join(root, "db"),
        source: "MEMICL_DATA_DIR",
      });
    });

    it("finds the nearest .memicl that holds a database, walking up", () => {
      for (const cwd of ["checkout", "checkout/src", "checkout/src/deep"])
        expect(chooseDataDir({ HOME: "/home/ana" }, path.join(root, cwd))).toEqual({
          dataDir: path.join(root, "checkout", ".memicl"),
          source: "found",
        });
    });

    it("falls back to the user's folder: XDG_DATA_HOME when absolute, else ~/.local/share", () => {
      expect(chooseDataDir({ HOME: "/home/ana" }, root)).toEqual({
        dataDir: "/home/ana/.local/share/memicl",
        source: "default",
      });
      expect(defaultDataDir({ HOME: "/home/ana", XDG_DATA_HOME: "/data/xdg" })).toBe("/data/xdg/memicl");
      expect(defaultDataDir({ HOME: "/home/ana", XDG_DATA_HOME: "relative" })).toBe(
        "/home/ana/.local/share/memicl",
      );
    });
  });

  it("reads every variable", () => {
    const config = loadConfig({
      PORT: "8080",
      DATABASE_URL: "postgres://u@h/db",
      MEMICL_DATA_DIR: "/tmp/x",
      LOG_LEVEL: "debug",
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: "postgres://u@h/db",
      dataDir: "/tmp/x",
      logLevel: "debug",
    });
  });

  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://x"],
    ["LOG_LEVEL", "loud"],
  ])("stops with a message naming %s when it is %p", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}=`));
  });

  it("treats an empty variable as unset", () => {
    expect(loadConfig({ DATABASE_URL: "" }).databaseUrl).toBeUndefined();
  });
});
