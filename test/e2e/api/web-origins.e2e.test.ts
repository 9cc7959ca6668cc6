import http from "node:http";
import { Client, createClient } from "graphql-ws";
import WebSocket from "ws";
import { ApiKeyService } from "../../../src/auth/api-key.service";
import { classificationSample, startRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

/** A raw HTTP POST with the headers given (fetch will not send a Host of our choosing). */
function post(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: any }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text || "{}") }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** Opens a WebSocket upgrade with the headers given; resolves with the HTTP status it was refused with, or 101. */
function upgrade(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, "graphql-transport-ws", { headers });
    socket.on("open", () => {
      socket.close();
      resolve(101);
    });
    socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
    socket.on("error", () => {});
  });
}

function wsClient(api: TestServer, key: string | null, headers: Record<string, string> = {}): Client {
  return createClient({
    url: api.server.url.replace(/^http/, "ws"),
    webSocketImpl: class extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers });
      }
    },
    connectionParams: key ? { authorization: `Bearer ${key}` } : {},
    retryAttempts: 0,
    lazy: true,
  });
}

function once(client: Client, query: string): Promise<{ data?: any; errors?: any[]; closed?: number }> {
  return new Promise((resolve) => {
    let result: { data?: any; errors?: any[] } = {};
    client.subscribe(
      { query },
      {
        next: (value) => {
          result = value as typeof result;
        },
        error: (error) => {
          if (Array.isArray(error)) resolve({ errors: error });
          else if ((error as { code?: number })?.code) resolve({ closed: (error as { code: number }).code });
          else resolve({ errors: [error] });
        },
        complete: () => resolve(result),
      },
    );
  });
}

const CREATE = JSON.stringify({
  query: `mutation { importDataset(input: { name: "evil", content: "text,label\\na b c,x\\n", format: "csv" }) { dataset { id } } }`,
});

describe("requests from web pages and other names (default mode: no keys)", () => {
  let api: TestServer;
  let port: string;

  beforeAll(async () => {
    api = await startTestServer("embedded");
    port = new URL(api.server.url).port;
  });
  afterAll(() => api?.close());

  it("refuses an HTTP request with a foreign Origin, or a Host that is not this server's (DNS rebinding)", async () => {
    const foreignOrigin = await post(api.server.url, CREATE, { origin: "https://evil.example" });
    expect(foreignOrigin.status).toBe(403);
    expect(foreignOrigin.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/^Origin "https:\/\/evil.example" may not call this server/),
      extensions: { code: "FORBIDDEN" },
    });
    // A rebinding page: its own name as Host, its own origin as Origin.
    const rebound = await post(api.server.url, CREATE, {
      host: `evil.example:${port}`,
      origin: `http://evil.example:${port}`,
    });
    expect(rebound.status).toBe(403);
    expect(rebound.body.errors[0].message).toMatch(/^Host "evil.example:\d+" is not a name of this server/);
    // Liveness is probed by address (a pod's IP): served whatever the Host.
    const probe = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        { host: "127.0.0.1", port, path: "/health", headers: { host: `10.1.2.3:${port}` } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      request.end();
    });
    expect(probe).toBe(200);
    const datasets = await api.gql(`{ datasets(first: 5) { edges { node { name } } } }`);
    expect(datasets.data!.datasets.edges).toEqual([]);

    // Its own pages (the dashboard), scripts without an Origin and the loopback names are served.
    for (const headers of [
      { origin: `http://localhost:${port}`, host: `localhost:${port}` } as Record<string, string>,
      { host: `127.0.0.1:${port}` },
      { host: `[::1]:${port}` },
    ]) {
      const served = await post(api.server.url, JSON.stringify({ query: "{ __typename }" }), headers);
      expect({ headers, status: served.status }).toEqual({ headers, status: 200 });
    }
  });

  it("refuses a WebSocket upgrade with a foreign Origin or Host, and serves its own", async () => {
    const url = api.server.url.replace(/^http/, "ws");
    expect(await upgrade(url, { origin: "https://evil.example" })).toBe(403);
    expect(await upgrade(url, { host: `evil.example:${port}`, origin: `http://evil.example:${port}` })).toBe(
      403,
    );
    expect(await upgrade(url, { origin: `http://127.0.0.1:${port}` })).toBe(101);
    expect(await upgrade(url, {})).toBe(101);
  });

  it("applies the HTTP limits over WebSocket too, and formats its errors", async () => {
    const client = wsClient(api, null);
    try {
      // More tokens than MEMICL_MAX_QUERY_TOKENS: refused before parsing.
      const huge = await once(client, `{ ${Array.from({ length: 6000 }, () => "__typename").join(" ")} }`);
      expect(huge.errors?.[0]).toMatchObject({ extensions: { code: "GRAPHQL_VALIDATION_FAILED" } });
      expect(huge.errors?.[0].message).toMatch(/more than 5000 tokens/);
      // Too deep.
      const nested = "samples { dataset { ".repeat(7);
      const deep = await once(
        client,
        `{ datasets(first: 1) { edges { node { ${nested} id ${"} } ".repeat(7)} } } } }`,
      );
      expect(deep).toMatchObject({ errors: [{ extensions: { code: "GRAPHQL_VALIDATION_FAILED" } }] });
      // A syntax error says so, with its code.
      const broken = await once(client, "{ datasets(");
      expect(broken.errors?.[0].extensions?.code).toBe("GRAPHQL_PARSE_FAILED");
      // A value PostgreSQL refuses is the request's fault, not a raw database message.
      const bad = await once(client, `{ run(id: "not-a-uuid") { id } }`);
      expect(JSON.stringify(bad)).not.toMatch(/invalid input syntax/);
      // The socket survives all of it.
      expect((await once(client, "{ __typename }")).data).toEqual({ __typename: "Query" });
    } finally {
      await client.dispose();
    }
  });
});

describe("a key revoked while its socket is open (keys on)", () => {
  let api: TestServer;
  let key: string;
  let keys: ApiKeyService;

  beforeAll(async () => {
    api = await startTestServer("embedded", { MEMICL_AUTH: "keys" });
    keys = new ApiKeyService(api.database.dataSource);
    key = (await keys.create("short-lived", "admin")).key;
  });
  afterAll(() => api?.close());

  it("is refused from the next operation on, mutations included, and the socket closes", async () => {
    const client = wsClient(api, key);
    try {
      expect((await once(client, "{ __typename }")).data).toEqual({ __typename: "Query" });
      await keys.revoke("short-lived");
      const after = await once(
        client,
        `mutation { importDataset(input: { name: "late", content: "text,label\\na b,x\\n", format: "csv" }) { dataset { id } } }`,
      );
      expect(after.data).toBeUndefined();
      expect(JSON.stringify(after)).toMatch(/UNAUTHENTICATED|4403/);
    } finally {
      await client.dispose();
    }
    const datasets = await api.database.dataSource.query("SELECT count(*)::int AS n FROM dataset");
    expect(datasets[0].n).toBe(0);
  });
});

describe("a key revoked while its subscription streams (keys on)", () => {
  let open: TestServer;
  let guarded: TestServer;
  let key: string;
  let keys: ApiKeyService;

  beforeAll(async () => {
    // One database: a server without keys sets the run up, one with keys serves the subscription.
    open = await startTestServer("embedded");
    guarded = await startTestServer("embedded", { MEMICL_AUTH: "keys" }, open.database);
    keys = new ApiKeyService(open.database.dataSource);
    key = (await keys.create("streaming", "viewer")).key;
  });
  afterAll(async () => {
    await guarded?.close();
    await open?.close();
  });

  it("ends the subscription at its next event once the key is revoked", async () => {
    const sampleId = await classificationSample(open, "streamed", {
      rows: 10,
      instances: 2,
      demonstrations: 0,
      shots: [0],
    });
    const { run } = await startRun(open, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "simulated",
      model: "m",
    });
    const client = wsClient(guarded, key);
    const events: string[] = [];
    const ended = new Promise<string>((resolve) => {
      client.subscribe(
        {
          query: `subscription($id: ID!) { runProgress(runId: $id) { waitingReason } }`,
          variables: { id: run.id },
        },
        {
          next: (value) => {
            if (value.errors) resolve(`errors: ${JSON.stringify(value.errors)}`);
            else events.push(String((value.data as any).runProgress.waitingReason));
          },
          error: (error) => resolve(`closed: ${JSON.stringify((error as { code?: number }).code ?? error)}`),
          complete: () => resolve("complete"),
        },
      );
    });
    const change = (reason: string) =>
      open.database.dataSource.query("UPDATE run SET waiting_reason = $2 WHERE id = $1", [run.id, reason]);
    try {
      await change("before");
      for (let tries = 0; tries < 100 && !events.includes("before"); tries++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(events).toContain("before");
      await keys.revoke("streaming");
      // Past the time a key found valid serves events, the run changes again.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      await change("after");
      const how = await ended;
      expect(how).toMatch(/UNAUTHENTICATED|4403/);
      expect(events).not.toContain("after");
    } finally {
      await client.dispose();
    }
  });
});
