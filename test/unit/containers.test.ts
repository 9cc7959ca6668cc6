import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { parse } from "yaml";

// No container engine runs on the development machine, so the container files are checked for structure here;
// building the image and bringing the stack up is left to a machine with an engine (see README, "Deploying").
const read = (file: string) => fs.readFileSync(path.resolve(__dirname, "../../docker", file), "utf8");

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
    const { engines } = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../package.json"), "utf8"));
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
