import http from "node:http";
import { AddressInfo } from "node:net";
import { FakeBatchApi } from "./fake-batch-api";

/** What the server does with the next requests, consumed in order; then `fallback` for the rest. */
export type Behaviour =
  | {
      kind: "answer";
      delayMs?: number;
      content?: string;
      finishReason?: string;
      /** The model name and fingerprint it reports (an echoing proxy can put anything there). */
      model?: string;
      systemFingerprint?: string;
      promptTokens?: number;
      /** The answer's `usage` as given (null: none at all), instead of the counts below. */
      usage?: Record<string, unknown> | null;
      /** The answer's completion_tokens, whatever its content's length (a provider ignoring max_tokens). */
      completionTokens?: number;
    }
  | {
      kind: "status";
      status: number;
      retryAfterSeconds?: number;
      body?: string;
      /** Quote the request's Authorization header in the error body (as some proxies do). */
      echoAuthorization?: boolean;
    }
  | { kind: "hang" }
  | { kind: "malformed" };

export interface RecordedRequest {
  at: number;
  model: string;
  messages: { role: string; content: string }[];
  maxTokens: number;
  temperature: number;
}

/**
 * A real HTTP server speaking the OpenAI chat-completions protocol, for tests and benchmarks. It answers
 * with a function of the prompt (by default the last line of the last message, reversed), and can be told
 * to answer slowly, with an error status (and Retry-After), to hang, or to send a malformed body. With
 * `requestsPerMinute` it enforces a limit itself (429 + Retry-After), as a provider would.
 */
export class FakeOpenAiServer {
  readonly requests: RecordedRequest[] = [];
  /** Calls answered with a well-formed completion (the ones a provider would bill). */
  answered = 0;
  /** The same, by the model asked for. */
  readonly answeredByModel = new Map<string, number>();
  /** Requests refused with 429 by `requestsPerMinute`. */
  rateLimited = 0;
  /** Requests open right now (answering, waiting or hanging). */
  inFlight = 0;
  /** The most requests open at once since the last reset (tests set it to 0). */
  maxInFlight = 0;
  private readonly script: Behaviour[] = [];
  fallback: Behaviour = { kind: "answer" };
  /** When set, decides each request's behaviour once the script is used up (a fault mix). */
  choose: (() => Behaviour) | null = null;
  answer: (request: RecordedRequest) => string = (request) =>
    request.messages.at(-1)!.content.split("\n").at(-1)!.split("").reverse().join("");
  requestsPerMinute: number | null = null;
  /**
   * With `tokensPerMinute`, a limit on tokens as a provider counts them at request time (the prompt's tokens by
   * `countPromptTokens` plus `max_tokens`) over a rolling minute: 429 + Retry-After beyond it. The counted prompt
   * tokens are also what the answer's usage reports.
   */
  tokensPerMinute: number | null = null;
  countPromptTokens: ((messages: { role: string; content: string }[]) => number) | null = null;
  /** Requests refused with 429 by `tokensPerMinute`. */
  tokenLimited = 0;
  private readonly tokensServed: { at: number; tokens: number }[] = [];
  /** Tokens of the requests accepted under `tokensPerMinute`, and when the first and last were accepted. */
  tokensAccepted = 0;
  firstServedAt: number | null = null;
  lastServedAt: number | null = null;
  /** What `GET /models` lists (as vLLM lists the one model it serves). */
  models: string[] = ["stand-in-model"];
  /** Keep every request in `requests` (tests read them); a long benchmark turns this off. */
  keepRequests = true;
  /** Given each request's body as received (a benchmark records them to replay the same calls). */
  onBody: ((body: string) => void) | null = null;
  private received = 0;
  /** Arrival times of the last minute's chat requests, answered or refused (for `peakPerMinute`). */
  private readonly arrivals: number[] = [];
  private arrivalsStart = 0;
  /**
   * The most chat requests that arrived in any 60-second window (answered and refused alike): what a provider
   * counting a rolling minute sees memicl send, to set against its limit.
   */
  peakPerMinute = 0;
  private readonly served: number[] = [];
  private server: http.Server | null = null;
  /** With a status, the files and batches endpoints answer it (a server without a Batch API). */
  batchApiRefusal: number | null = null;
  /** The files and batches endpoints (the Batch API), answering with `answer` too. */
  readonly batches = new FakeBatchApi((body) => {
    const request: RecordedRequest = {
      at: Date.now(),
      model: body.model,
      messages: body.messages,
      maxTokens: body.max_tokens,
      temperature: body.temperature,
    };
    return this.completionBody(
      request,
      this.answer(request),
      this.fallback.kind === "answer" ? this.fallback : { kind: "answer" },
    );
  });
  private readonly hanging = new Set<http.ServerResponse>();
  url = "";

  /** Behaviours for the next requests, in order. */
  next(...behaviours: Behaviour[]) {
    this.script.push(...behaviours);
  }

  async start(): Promise<string> {
    this.server = http.createServer((request, response) => {
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      response.once("close", () => {
        this.inFlight -= 1;
      });
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
      });
      request.on("end", () => {
        const raw = Buffer.concat(chunks);
        const body = raw.toString("utf8");
        // A server without a Batch API (vLLM and others) refuses its files and batches endpoints.
        if (this.batchApiRefusal !== null && /\/(files|batches)(\/|\?|$)/.test(request.url ?? ""))
          return this.json(response, this.batchApiRefusal, {
            error: {
              message: `unsupported endpoint ${request.method} ${request.url}`,
              type: "invalid_request_error",
            },
          });
        if (this.batches.handles(request.method ?? "GET", request.url ?? "", request.headers, raw, response))
          return;
        // What a benchmark in another process reads: how many calls were answered and refused.
        if (request.method === "GET" && request.url?.endsWith("/stats"))
          return this.json(response, 200, {
            received: this.received,
            answered: this.answered,
            rateLimited: this.rateLimited,
            peakPerMinute: this.peakPerMinute,
            tokenLimited: this.tokenLimited,
            tokensAccepted: this.tokensAccepted,
            firstServedAt: this.firstServedAt,
            lastServedAt: this.lastServedAt,
            batchesCreated: this.batches.batches.size,
            batchRequestsSubmitted: [...this.batches.submitted.values()].reduce((sum, n) => sum + n, 0),
            batchRequestsDistinct: this.batches.distinctSubmitted,
            batchMostSubmissions: this.batches.mostSubmissions,
          });
        if (request.method === "GET" && request.url?.endsWith("/models"))
          return this.json(response, 200, {
            object: "list",
            data: this.models.map((id) => ({ id, object: "model", created: 0, owned_by: "memicl-test" })),
          });
        void this.handle(body, response, request.headers.authorization ?? "");
      });
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.batches.stop();
    for (const response of this.hanging) response.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private countArrival(at: number): void {
    this.arrivals.push(at);
    while (this.arrivals[this.arrivalsStart] <= at - 60_000) this.arrivalsStart += 1;
    this.peakPerMinute = Math.max(this.peakPerMinute, this.arrivals.length - this.arrivalsStart);
    if (this.arrivalsStart > 10_000) {
      this.arrivals.splice(0, this.arrivalsStart);
      this.arrivalsStart = 0;
    }
  }

  private record(request: RecordedRequest): void {
    this.received += 1;
    if (this.keepRequests) this.requests.push(request);
  }

  private async handle(body: string, response: http.ServerResponse, authorization: string) {
    this.onBody?.(body);
    const parsed = JSON.parse(body || "{}");
    const request: RecordedRequest = {
      at: Date.now(),
      model: parsed.model,
      messages: parsed.messages ?? [],
      maxTokens: parsed.max_tokens,
      temperature: parsed.temperature,
    };
    this.countArrival(request.at);
    if (this.requestsPerMinute !== null) {
      const windowStart = Date.now() - 60_000;
      while (this.served.length > 0 && this.served[0] < windowStart) this.served.shift();
      if (this.served.length >= this.requestsPerMinute) {
        this.record(request);
        this.rateLimited += 1;
        const waitSeconds = Math.max(1, Math.ceil((this.served[0] + 60_000 - Date.now()) / 1000));
        return this.json(
          response,
          429,
          { error: { message: "rate limited", type: "rate_limit" } },
          { "retry-after": String(waitSeconds) },
        );
      }
      this.served.push(Date.now());
    }
    if (this.tokensPerMinute !== null) {
      const windowStart = Date.now() - 60_000;
      while (this.tokensServed.length > 0 && this.tokensServed[0].at < windowStart) this.tokensServed.shift();
      const wanted = (this.countPromptTokens?.(request.messages) ?? 0) + (request.maxTokens ?? 0);
      const used = this.tokensServed.reduce((sum, entry) => sum + entry.tokens, 0);
      if (used + wanted > this.tokensPerMinute && this.tokensServed.length > 0) {
        // Requests counted above are given back: this one is refused as a whole.
        if (this.requestsPerMinute !== null) this.served.pop();
        this.record(request);
        this.rateLimited += 1;
        this.tokenLimited += 1;
        const waitSeconds = Math.max(1, Math.ceil((this.tokensServed[0].at + 60_000 - Date.now()) / 1000));
        return this.json(
          response,
          429,
          { error: { message: "rate limited (tokens)", type: "tokens" } },
          { "retry-after": String(waitSeconds) },
        );
      }
      this.tokensServed.push({ at: Date.now(), tokens: wanted });
      this.tokensAccepted += wanted;
    }
    this.firstServedAt ??= Date.now();
    this.lastServedAt = Date.now();
    this.record(request);
    const behaviour = this.script.shift() ?? this.choose?.() ?? this.fallback;
    switch (behaviour.kind) {
      case "hang":
        this.hanging.add(response);
        return;
      case "malformed":
        response.writeHead(200, { "content-type": "application/json" });
        response.end('{"id": "x", "choices": [');
        return;
      case "status":
        return this.json(
          response,
          behaviour.status,
          behaviour.body
            ? JSON.parse(behaviour.body)
            : {
                error: {
                  message: behaviour.echoAuthorization
                    ? `invalid request with header Authorization: ${authorization}`
                    : `status ${behaviour.status}`,
                },
              },
          behaviour.retryAfterSeconds !== undefined
            ? { "retry-after": String(behaviour.retryAfterSeconds) }
            : {},
        );
      case "answer": {
        if (behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
        const content = behaviour.content ?? this.answer(request);
        if (!response.destroyed) {
          this.answered += 1;
          this.answeredByModel.set(request.model, (this.answeredByModel.get(request.model) ?? 0) + 1);
        }
        return this.json(response, 200, this.completionBody(request, content, behaviour));
      }
    }
  }

  private completionBody(
    request: RecordedRequest,
    content: string,
    behaviour: Extract<Behaviour, { kind: "answer" }>,
  ): Record<string, unknown> {
    return {
      id: `chatcmpl-${this.received}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: behaviour.model ?? `${request.model}-2026-01-01`,
      system_fingerprint: behaviour.systemFingerprint ?? "fp_fake",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content },
          finish_reason: behaviour.finishReason ?? "stop",
        },
      ],
      ...(behaviour.usage === null
        ? {}
        : {
            usage: behaviour.usage ?? {
              prompt_tokens:
                behaviour.promptTokens ??
                this.countPromptTokens?.(request.messages) ??
                JSON.stringify(request.messages).length,
              completion_tokens: behaviour.completionTokens ?? content.length,
              total_tokens: 0,
              prompt_tokens_details: { cached_tokens: 0 },
            },
          }),
    };
  }

  private json(
    response: http.ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    if (response.destroyed) return;
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(JSON.stringify(body));
  }
}
