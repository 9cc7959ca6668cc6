import { promisify } from "node:util";
import zlib from "node:zlib";
import { EnvHttpProxyAgent, request } from "undici";

const DECODERS: Record<string, (body: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  "x-gzip": promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

/**
 * The `fetch` the `openai` client calls providers with: undici's `request` under a fetch-shaped function that
 * reads the whole answer before returning it (memicl never streams). Global `fetch` (undici's WHATWG fetch) spends
 * about twice the CPU per call on web streams and request objects, which on a small machine is time a run waits
 * (docs/BENCHMARKS.md). Connections are kept alive and reused per origin; HTTP_PROXY, HTTPS_PROXY and NO_PROXY
 * are honoured. Redirects are not followed: an API endpoint answers where it is asked.
 */
export function createHttpFetch(options: { keepAliveSeconds?: number } = {}): typeof fetch {
  const dispatcher = new EnvHttpProxyAgent({ keepAliveTimeout: (options.keepAliveSeconds ?? 60) * 1000 });
  return async (input, init = {}) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    let body = init.body;
    const requestHeaders = headersObject(init.headers);
    if (body !== undefined && body !== null && typeof body !== "string" && !(body instanceof Uint8Array)) {
      // A file upload (the Batch API's input file: multipart form data), a Blob or a stream: serialised once,
      // with the content type (and multipart boundary) the platform gives it.
      const serialised = new Response(body as ConstructorParameters<typeof Response>[0]);
      const type = serialised.headers.get("content-type");
      if (type && !Object.keys(requestHeaders).some((name) => name.toLowerCase() === "content-type"))
        requestHeaders["content-type"] = type;
      body = new Uint8Array(await serialised.arrayBuffer());
    }
    const response = await request(url, {
      method: (init.method ?? "GET") as "GET",
      headers: requestHeaders,
      body: (body as string | Uint8Array | null | undefined) ?? undefined,
      signal: init.signal ?? undefined,
      dispatcher,
    });
    let bytes: Uint8Array<ArrayBuffer> = new Uint8Array(await response.body.arrayBuffer());
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const one of value) headers.append(name, one);
      else headers.set(name, value);
    }
    const encoding = headers.get("content-encoding")?.trim().toLowerCase();
    if (encoding && encoding !== "identity") {
      const decode = DECODERS[encoding];
      if (!decode)
        throw new TypeError(`the provider answered with an unsupported content-encoding: ${encoding}`);
      bytes = new Uint8Array(await decode(Buffer.from(bytes)));
      headers.delete("content-encoding");
      headers.delete("content-length");
    }
    // A Response may not carry a body with these statuses.
    const empty = response.statusCode === 204 || response.statusCode === 304 || response.statusCode < 200;
    return new BufferedResponse(
      empty ? new Uint8Array(0) : bytes,
      response.statusCode,
      headers,
      url,
    ) as unknown as Response;
  };
}

/**
 * The answer as the `openai` client reads it, already in memory: status, headers, and the body as text, JSON or
 * bytes. A WHATWG `Response` wraps the same bytes in a web stream the client never streams from; building and
 * reading one cost about 5% of `memicl serve`'s busy time in the grid (docs/BENCHMARKS.md). `body` is null: there
 * is no stream to cancel or read.
 */
class BufferedResponse {
  readonly ok: boolean;
  readonly statusText = "";
  readonly redirected = false;
  readonly type = "basic";
  readonly body = null;
  private used = false;

  constructor(
    private readonly bytes: Uint8Array,
    readonly status: number,
    readonly headers: Headers,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status < 300;
  }

  get bodyUsed(): boolean {
    return this.used;
  }

  private take(): Uint8Array {
    if (this.used) throw new TypeError("the body has already been read");
    this.used = true;
    return this.bytes;
  }

  async text(): Promise<string> {
    return Buffer.from(this.take()).toString("utf8");
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async blob(): Promise<Blob> {
    return new Blob([this.take() as Uint8Array<ArrayBuffer>]);
  }

  clone(): BufferedResponse {
    if (this.used) throw new TypeError("the body has already been read");
    return new BufferedResponse(this.bytes, this.status, this.headers, this.url);
  }
}

function headersObject(headers: RequestInit["headers"]): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  return { ...(headers as Record<string, string>) };
}
