import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { parse } from "yaml";
import { nodeFlagsOf } from "../../../bench/node-flags";

// No container engine runs on the development machine, so the container files are checked for structure here;
// building the image and bringing the stack up is left to a machine with an engine (see README, "Deploying").
const read = (file: string) => fs.readFileSync(path.resolve(__dirname, "../../../docker", file), "utf8");

describe("docker/Dockerfile", () => {
  const dockerfile = read("Dockerfile");
  const instructions = dockerfile
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  const stages = instructions.filter((line) => line.startsWith("FROM "));
  const runtime = instructions.slice(instructions.lastIndexOf(stages.at(-1)!));

  it("builds in one stage and runs from another with a Node LTS inside the project's engines", () => {
    expect(stages).toHaveLength(2);
    const { engines } = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../../package.json"), "utf8"));
    for (const stage of stages) {
      const major = /node:(\d+)/.exec(stage)?.[1];
      expect(major).toBeDefined();
      // The image tag follows the LTS line; its latest minor must satisfy the engines.
      expect(semver.intersects(`^${major}.0.0`, engines.node)).toBe(true);
      expect(Number(major) % 2).toBe(0); // even majors are the LTS lines
    }
  });

  it("prunes dev dependencies, runs as a user of its own, has a healthcheck and a stop signal", () => {
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
    expect(runtime.some((line) => /^USER (?!root)\w+/.test(line))).toBe(true);
    expect(runtime.find((line) => line.startsWith("HEALTHCHECK"))).toMatch(/\/ready/);
    expect(runtime).toContain("STOPSIGNAL SIGTERM");
    expect(runtime.filter((line) => line.startsWith("COPY")).join(" ")).not.toMatch(
      /\btest\b|\bbench\b|\.ts\b/,
    );
  });
});

describe("node's flags for memicl", () => {
  const root = path.resolve(__dirname, "../../..");
  const flags = nodeFlagsOf(path.join(root, "bin/memicl.js"));

  it("are on the memicl command's first line", () => {
    expect(flags).toEqual(["--max-semi-space-size=64"]);
  });

  it("are the same for npm start and the container's entry point", () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
    expect(scripts.start).toContain(`node ${flags.join(" ")} bin/memicl.js serve`);
    const entrypoint = /^ENTRYPOINT (.*)$/m.exec(read("Dockerfile"))?.[1];
    expect(JSON.parse(entrypoint!)).toEqual(["node", ...flags, "bin/memicl.js"]);
  });
});

describe("docker/compose.yaml", () => {
  const compose = parse(read("compose.yaml"));

  it("runs PostgreSQL with a volume, the API with keys on, and a scalable worker, with health and restarts", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["api", "postgres", "worker"]);
    expect(compose.services.postgres.volumes[0]).toMatch(/^pgdata:/);
    expect(compose.volumes).toHaveProperty("pgdata");
    for (const service of Object.values<any>(compose.services))
      expect(service.restart).toBe("unless-stopped");
    expect(compose.services.api.environment.MEMICL_AUTH).toBe("keys");
    expect(compose.services.api.depends_on.postgres.condition).toBe("service_healthy");
    expect(compose.services.worker.command).toEqual(["worker"]);
    expect(compose.services.worker.ports).toBeUndefined(); // scalable: no fixed host port
    expect(compose.services.api.ports).toEqual(["127.0.0.1:4000:4000"]);
  });

  it("passes the providers file as a secret and no secret in the file itself", () => {
    expect(compose.secrets["providers.json"].file).toBe("./providers.json");
    expect(compose.services.api.secrets).toContain("providers.json");
    expect(read("compose.yaml")).not.toMatch(/sk-[A-Za-z0-9]{8,}|OPENAI_API_KEY:\s*\S/);
    const example = JSON.parse(read("providers.example.json"));
    expect(example.providers.openai.apiKeyEnv).toBe("OPENAI_API_KEY");
  });
});

describe("the image on its own (docker run, no compose)", () => {
  const dockerfile = read("Dockerfile");
  /** The runtime stage's ENV, as the entrypoint sees it. */
  const runtimeEnv = (): Record<string, string> => {
    const runtime = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    const env: Record<string, string> = {};
    for (const match of runtime.replace(/\\\n\s*/g, " ").matchAll(/^ENV (.+)$/gm))
      for (const pair of match[1].trim().split(/\s+/)) {
        const [name, value] = pair.split("=");
        env[name] = value;
      }
    return env;
  };

  it("configures a server that starts: keys on for its public address, a data folder the user owns", () => {
    const { loadConfig } =
      require("../../../src/config/config") as typeof import("../../../src/config/config");
    const { isLoopback } = require("../../../src/api/server") as typeof import("../../../src/api/server");
    const env = runtimeEnv();
    const config = loadConfig(env, "/app");
    // serve refuses a non-loopback address without keys: the image turns keys on.
    expect(isLoopback(config.host)).toBe(false);
    expect(config.auth).toBe("keys");
    expect(config.databaseUrl).toBeUndefined();
    expect(config).toMatchObject({ dataDir: "/data", dataDirSource: "MEMICL_DATA_DIR" });
    // The data folder exists, belongs to the image's user, and is a volume.
    expect(dockerfile).toMatch(/mkdir -p \/data && chown node:node \/data/);
    expect(dockerfile).toMatch(/^VOLUME \["\/data"\]$/m);
  });

  it("says at start-up how to create the first key, and nothing once one exists", () => {
    const { keysAdvice } =
      require("../../../src/cli/serve.command") as typeof import("../../../src/cli/serve.command");
    expect(keysAdvice(0)).toMatch(
      /none exists yet.*`docker exec <container> node bin\/memicl\.js keys create --name admin --role admin`/,
    );
    expect(keysAdvice(1)).toBeNull();
  });

  it("keeps secrets and local configuration out of the build context", () => {
    const ignored = fs.readFileSync(path.resolve(__dirname, "../../../.dockerignore"), "utf8").split("\n");
    for (const entry of ["docker/.env", "docker/providers.json", "providers.json", ".memicl"])
      expect(ignored).toContain(entry);
  });
});
