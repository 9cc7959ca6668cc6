import path from "node:path";
import { ConfigError, loadConfig } from "../../src/config/config";

describe("loadConfig", () => {
  it("uses the documented defaults when nothing is set", () => {
    expect(loadConfig({})).toMatchObject({
      port: 4000,
      databaseUrl: undefined,
      dataDir: path.resolve(".memicl"),
      logLevel: "info",
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
