import http from "node:http";
import net, { AddressInfo } from "node:net";
import zlib from "node:zlib";
import OpenAI, { APIConnectionError, APIError } from "openai";
import { createHttpFetch } from "../../src/llm/http-fetch";

/** A local server whose answer each test sets; it records what it was sent. */
function testServer() {
  const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  let respond: (response: http.ServerResponse) => void = (response) => response.end("ok");
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      respond(response);
    });
  });
  return {
    seen,
    answer(handler: (response: http.ServerResponse) => void) {
      respond = handler;
    },
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const COMPLETION = {
  id: "c1",
  object: "chat.completion",
  created: 1,
  model: "m-reported",
  choices: [{ index: 0, message: { role: "assistant", content: "the answer" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
};

describe("the provider transport (undici's request under a fetch-shaped function)", () => {
  const server = testServer();
  let base = "";
  const httpFetch = createHttpFetch();
  beforeAll(async () => {
    base = await server.start();
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    server.seen.length = 0;
  });

  it("sends the method, headers and body, and returns status, headers and body", async () => {
    server.answer((response) => {
      response.setHeader("x-one", "1");
      response.setHeader("set-cookie", ["a=1", "b=2"]);
      response.writeHead(201, { "content-type": "application/json" });
      response.end('{"ok":true}');
    });
    const response = await httpFetch(`${base}/v1/x?q=1`, {
      method: "POST",
      headers: new Headers({ "content-type": "application/json", authorization: "Bearer k" }),
      body: '{"a":1}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-one")).toBe("1");
    expect(await response.json()).toEqual({ ok: true });
    expect(server.seen[0]).toMatchObject({ method: "POST", url: "/v1/x?q=1", body: '{"a":1}' });
    expect(server.seen[0].headers).toMatchObject({
      authorization: "Bearer k",
      "content-type": "application/json",
    });
  });

  it.each([
    ["gzip", zlib.gzipSync],
    ["deflate", zlib.deflateSync],
    ["br", zlib.brotliCompressSync],
  ])("decodes a %s body", async (encoding, encode) => {
    server.answer((response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": encoding });
      response.end(encode(Buffer.from(JSON.stringify({ text: "é".repeat(1000) }))));
    });
    const response = await httpFetch(`${base}/`, { method: "GET" });
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.json()).toEqual({ text: "é".repeat(1000) });
  });

  it("sends a file upload (multipart form data) with its boundary, as the Batch API's files endpoint takes it", async () => {
    server.answer((response) => response.end("{}"));
    const form = new FormData();
    form.append("purpose", "batch");
    form.append("file", new Blob(['{"custom_id":"1"}\n']), "input.jsonl");
    await httpFetch(`${base}/v1/files`, { method: "POST", body: form });
    const seen = server.seen[0];
    expect(seen.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const parsed = await new Request("http://x/", {
      method: "POST",
      headers: { "content-type": String(seen.headers["content-type"]) },
      body: seen.body,
    }).formData();
    expect(parsed.get("purpose")).toBe("batch");
    expect(await (parsed.get("file") as File).text()).toBe('{"custom_id":"1"}\n');
  });

  it("refuses an encoding it cannot decode, saying which", async () => {
    server.answer((response) => {
      response.writeHead(200, { "content-encoding": "zstd-or-whatever" });
      response.end("xx");
    });
    await expect(httpFetch(`${base}/`)).rejects.toThrow("unsupported content-encoding: zstd-or-whatever");
  });

  it("answers an aborted request with an AbortError, as fetch does", async () => {
    server.answer(() => {
      // Never answers.
    });
    const controller = new AbortController();
    const pending = httpFetch(`${base}/`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("goes through the proxy HTTP_PROXY names, unless NO_PROXY names the host", async () => {
    server.answer((response) => response.end("through"));
    const tunnels: string[] = [];
    const proxy = http.createServer((_request, response) => response.writeHead(405).end());
    proxy.on("connect", (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      tunnels.push(request.url!);
      const [host, port] = request.url!.split(":");
      const upstream = net.connect(Number(port), host, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    // undici reads the lower-case names first: both spellings are set or cleared here.
    const names = ["HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"];
    const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
    try {
      for (const name of names) delete process.env[name];
      process.env.HTTP_PROXY = proxyUrl;
      const proxied = createHttpFetch();
      expect(await (await proxied(`${base}/one`)).text()).toBe("through");
      expect(tunnels).toEqual([base.replace("http://", "")]);

      process.env.NO_PROXY = "127.0.0.1";
      const direct = createHttpFetch();
      expect(await (await direct(`${base}/two`)).text()).toBe("through");
      expect(tunnels).toHaveLength(1);
    } finally {
      for (const [name, value] of Object.entries(saved))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it("carries the openai client: a completion, an error status with its Retry-After, and a timeout", async () => {
    const client = new OpenAI({
      baseURL: `${base}/v1`,
      apiKey: "k",
      maxRetries: 0,
      timeout: 200,
      fetch: httpFetch,
    });
    const ask = () =>
      client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });

    server.answer((response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(COMPLETION));
    });
    const completion = await ask();
    expect(completion.choices[0].message.content).toBe("the answer");
    expect(JSON.parse(server.seen[0].body).messages).toEqual([{ role: "user", content: "hi" }]);

    server.answer((response) => {
      response.writeHead(429, { "content-type": "application/json", "retry-after": "7" });
      response.end(JSON.stringify({ error: { message: "slow down" } }));
    });
    const limited = await ask().catch((error) => error);
    expect(limited).toBeInstanceOf(APIError);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");

    server.answer(() => {
      // Never answers: the client's own timeout aborts the request.
    });
    // A connection error (the client names it a timeout outside Jest; in Jest's separate realm it cannot tell the
    // AbortError apart, with global fetch as with this one: the test above checks the AbortError itself).
    await expect(ask()).rejects.toBeInstanceOf(APIConnectionError);
  });
});
