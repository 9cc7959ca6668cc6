import { runCli } from "../../support/cli";
import { startTestServer, TestServer } from "../../support/server";

/** Safe by default: loopback only, no CORS, JSON errors everywhere, limits on what one query may ask. */
describe("the server's safe defaults", () => {
  let api: TestServer;
  const base = () => api.server.url.replace(/\/graphql$/, "");
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(api.server.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });

  beforeAll(async () => {
    api = await startTestServer("embedded", { MEMICL_MAX_INLINE_IMPORT_BYTES: "1000" });
  });
  afterAll(() => api?.close());

  it("listens on loopback by default", () => {
    expect(api.config.host).toBe("127.0.0.1");
    expect(api.server.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });

  it("refuses to serve beyond loopback without authentication, naming what to set", async () => {
    const result = await runCli(["serve"], {
      HOST: "0.0.0.0",
      PORT: "0",
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/x",
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /HOST=0\.0\.0\.0 is not a loopback address.*MEMICL_AUTH.*MEMICL_ALLOW_UNAUTHENTICATED=true/s,
    );
  });

  it("does not name the framework it runs on (no X-Powered-By)", async () => {
    const response = await post(JSON.stringify({ query: "{ __typename }" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-powered-by")).toBeNull();
    expect((await fetch(`${base()}/health`)).headers.get("x-powered-by")).toBeNull();
  });

  it("marks every GraphQL answer, data or error, for no cache to keep (cache-control: no-store)", async () => {
    const answered = await post(JSON.stringify({ query: "{ datasetCount }" }));
    expect(await answered.json()).toEqual({ data: { datasetCount: expect.any(Number) } });
    expect(answered.headers.get("cache-control")).toBe("no-store");
    const refused = await post(JSON.stringify({ query: "{ noSuchField }" }));
    expect(refused.status).toBe(400);
    expect(refused.headers.get("cache-control")).toBe("no-store");
  });

  it("sends no CORS headers unless origins are configured", async () => {
    const response = await post(JSON.stringify({ query: "{ datasetCount }" }), {
      origin: "https://evil.example",
    });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it.each([
    ["a malformed JSON body", () => post('{"query": "{ datasetCount }"'), 400, "BAD_REQUEST"],
    [
      "an oversized body",
      () => post(JSON.stringify({ query: "{ datasetCount }", pad: "x".repeat(2_100_000) })),
      413,
      "PAYLOAD_TOO_LARGE",
    ],
    ["an unknown route", () => fetch(`${base()}/nope`), 404, "NOT_FOUND"],
  ])("answers %s with JSON in GraphQL's shape, no stack or path", async (_name, send, status, code) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ errors: [{ message: expect.any(String), extensions: { code } }] });
    expect(text).not.toMatch(/node_modules|\/work|\/src\/|at .*\(/);
  });

  it.each([
    ["1,000 aliases", `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: datasetCount`).join(" ")} }`],
    ["100 directives", `{ datasetCount ${"@include(if: true) ".repeat(100)} }`],
    ["a document of 10,000 tokens", `{ ${Array.from({ length: 5000 }, () => "__typename").join(" ")} }`],
    [
      "a costly query",
      `{ ${Array.from({ length: 25 }, (_, i) => `d${i}: datasets(first: 50) { edges { node { id name labels { label verbalizer count } samples { id instances(first: 50) { edges { node { id initialSegment subsequentSegment } } } } } } }`).join(" ")} }`,
    ],
  ])("refuses %s with a coded error", async (_name, query) => {
    const response = await api.gql(query);
    expect(response.errors?.[0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
    expect(response.data).toBeUndefined();
    // A limit says which setting it is, not that the query was misspelled.
    expect(response.errors?.[0].message).not.toMatch(/^Syntax Error/);
    expect(response.errors?.[0].message).toMatch(/MEMICL_MAX_QUERY_(ALIASES|DIRECTIVES|TOKENS|COST)/);
  });
});
