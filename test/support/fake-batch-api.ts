import http from "node:http";

/** One request line of a batch input file, as the OpenAI Batch API takes it. */
interface InputLine {
  custom_id: string;
  method: string;
  url: string;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    max_tokens: number;
    temperature: number;
  };
}

export interface StandInBatch {
  id: string;
  object: "batch";
  endpoint: string;
  errors: null | { data: { code: string; message: string }[] };
  input_file_id: string;
  completion_window: string;
  status:
    | "validating"
    | "failed"
    | "in_progress"
    | "finalizing"
    | "completed"
    | "expired"
    | "cancelling"
    | "cancelled";
  output_file_id: string | null;
  error_file_id: string | null;
  created_at: number;
  in_progress_at: number | null;
  expires_at: number;
  completed_at: number | null;
  failed_at: number | null;
  expired_at: number | null;
  cancelling_at: number | null;
  cancelled_at: number | null;
  request_counts: { total: number; completed: number; failed: number };
  metadata: Record<string, string> | null;
}

/** How the stand-in treats the batches it is given. */
export interface BatchBehaviour {
  /** Before a batch leaves `validating`. */
  startDelayMs: number;
  /** Per request, while `in_progress` (a test can stop memicl between submitting and collecting). */
  itemMs: number;
  /** A request this says fails gets an error line (status 500) instead of an answer. */
  fails: (customId: string) => boolean;
  /** After this many requests of a batch are answered, the batch expires (the rest in the error file). */
  expireAfter: number | null;
  /** The batch as a whole fails validation (e.g. a file over the limit) with this message. */
  rejectWith: string | null;
  /** Requests a file may hold; more fails the batch, as the provider does. */
  maxRequestsPerFile: number;
  /** The batch exists at once, but the answer to its creation comes this much later (or never: a crash). */
  createAnswerDelayMs: number;
}

/**
 * The files and batches endpoints of the OpenAI API, enough for memicl's batch execution: upload a JSONL file,
 * create a batch from it (with metadata), retrieve and list batches, cancel one, and read its output and error
 * files. Requests are answered with the server's answer function, one after another, with partial failure and
 * expiry on demand. It keeps what a test asserts on: every custom_id submitted, with how often.
 */
export class FakeBatchApi {
  readonly files = new Map<string, { purpose: string; filename: string; text: string }>();
  readonly batches = new Map<string, StandInBatch>();
  /** How often each custom_id was submitted in a batch (a request submitted twice shows 2). */
  readonly submitted = new Map<string, number>();
  behaviour: BatchBehaviour = {
    startDelayMs: 20,
    itemMs: 0,
    fails: () => false,
    expireAfter: null,
    rejectWith: null,
    maxRequestsPerFile: 50_000,
    createAnswerDelayMs: 0,
  };
  private sequence = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly answerBody: (request: InputLine["body"], customId: string) => Record<string, unknown>,
  ) {}

  /** Requests submitted in batches, counting each custom_id once. */
  get distinctSubmitted(): number {
    return this.submitted.size;
  }

  /** The most times one custom_id was submitted. */
  get mostSubmissions(): number {
    return Math.max(0, ...this.submitted.values());
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** Handles a request under /v1/files or /v1/batches; false when the path is not one of them. */
  handles(
    method: string,
    url: string,
    headers: http.IncomingHttpHeaders,
    body: Buffer,
    response: http.ServerResponse,
  ): boolean {
    const path = url.replace(/^.*?\/v1/, "").split("?")[0];
    const query = new URL(url, "http://stand-in").searchParams;
    if (method === "POST" && path === "/files") {
      void this.upload(headers, body).then(
        (file) => json(response, 200, file),
        (error) => json(response, 400, { error: { message: String(error) } }),
      );
      return true;
    }
    let match = /^\/files\/([^/]+)\/content$/.exec(path);
    if (method === "GET" && match) {
      const file = this.files.get(match[1]);
      if (!file) json(response, 404, { error: { message: `no file ${match[1]}` } });
      else {
        response.writeHead(200, { "content-type": "application/jsonl" });
        response.end(file.text);
      }
      return true;
    }
    if (method === "POST" && path === "/batches") {
      const request = JSON.parse(body.toString("utf8") || "{}");
      const file = this.files.get(request.input_file_id);
      if (!file) {
        json(response, 400, { error: { message: `no file ${request.input_file_id}` } });
        return true;
      }
      const created = this.create(request, file.text);
      if (this.behaviour.createAnswerDelayMs > 0)
        this.later(this.behaviour.createAnswerDelayMs, () => {
          if (!response.destroyed) json(response, 200, created);
        });
      else json(response, 200, created);
      return true;
    }
    if (method === "GET" && path === "/batches") {
      // Newest first, paged by `after` (a batch id) and `limit`, as the API lists them.
      const all = [...this.batches.values()].reverse();
      const after = query.get("after");
      const start = after ? all.findIndex((batch) => batch.id === after) + 1 : 0;
      const limit = Number(query.get("limit") ?? 20);
      const page = all.slice(start, start + limit);
      json(response, 200, {
        object: "list",
        data: page,
        first_id: page[0]?.id ?? null,
        last_id: page.at(-1)?.id ?? null,
        has_more: start + limit < all.length,
      });
      return true;
    }
    match = /^\/batches\/([^/]+)(\/cancel)?$/.exec(path);
    if (match) {
      const batch = this.batches.get(match[1]);
      if (!batch) json(response, 404, { error: { message: `no batch ${match[1]}` } });
      else if (method === "POST" && match[2]) json(response, 200, this.cancel(batch));
      else if (method === "GET" && !match[2]) json(response, 200, batch);
      else return false;
      return true;
    }
    return false;
  }

  private async upload(headers: http.IncomingHttpHeaders, body: Buffer) {
    // Multipart, parsed by the platform's own parser.
    const form = await new Request("http://stand-in/files", {
      method: "POST",
      headers: { "content-type": String(headers["content-type"]) },
      body,
    }).formData();
    const file = form.get("file") as File;
    const id = `file-${++this.sequence}`;
    const text = await file.text();
    this.files.set(id, { purpose: String(form.get("purpose")), filename: file.name, text });
    return {
      id,
      object: "file",
      bytes: Buffer.byteLength(text),
      created_at: now(),
      filename: file.name,
      purpose: String(form.get("purpose")),
      status: "processed",
    };
  }

  private create(
    request: {
      input_file_id: string;
      endpoint: string;
      completion_window: string;
      metadata?: Record<string, string>;
    },
    text: string,
  ): StandInBatch {
    const lines: InputLine[] = text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line));
    const batch: StandInBatch = {
      id: `batch_${++this.sequence}`,
      object: "batch",
      endpoint: request.endpoint,
      errors: null,
      input_file_id: request.input_file_id,
      completion_window: request.completion_window,
      status: "validating",
      output_file_id: null,
      error_file_id: null,
      created_at: now(),
      in_progress_at: null,
      expires_at: now() + 86_400,
      completed_at: null,
      failed_at: null,
      expired_at: null,
      cancelling_at: null,
      cancelled_at: null,
      request_counts: { total: lines.length, completed: 0, failed: 0 },
      metadata: request.metadata ?? null,
    };
    this.batches.set(batch.id, batch);
    for (const line of lines)
      this.submitted.set(line.custom_id, (this.submitted.get(line.custom_id) ?? 0) + 1);
    this.later(this.behaviour.startDelayMs, () => this.run(batch, lines));
    return batch;
  }

  private run(batch: StandInBatch, lines: InputLine[]): void {
    if (batch.status !== "validating") return;
    const rejection =
      this.behaviour.rejectWith ??
      (lines.length > this.behaviour.maxRequestsPerFile
        ? `the file has ${lines.length} requests; at most ${this.behaviour.maxRequestsPerFile} are allowed`
        : null);
    if (rejection) {
      Object.assign(batch, {
        status: "failed",
        failed_at: now(),
        errors: { data: [{ code: "invalid_file", message: rejection }] },
      });
      return;
    }
    Object.assign(batch, { status: "in_progress", in_progress_at: now() });
    const output: string[] = [];
    const errors: string[] = [];
    let index = 0;
    const step = () => {
      if (batch.status === "cancelling") return this.finish(batch, output, errors, "cancelled");
      if (index >= lines.length) return this.finish(batch, output, errors, "completed");
      if (
        this.behaviour.expireAfter !== null &&
        batch.request_counts.completed >= this.behaviour.expireAfter
      ) {
        for (const line of lines.slice(index))
          errors.push(
            JSON.stringify({
              id: `batch_req_${++this.sequence}`,
              custom_id: line.custom_id,
              response: null,
              error: {
                code: "batch_expired",
                message: "This request could not be executed before the completion window expired.",
              },
            }),
          );
        return this.finish(batch, output, errors, "expired");
      }
      const line = lines[index++];
      if (this.behaviour.fails(line.custom_id)) {
        batch.request_counts.failed += 1;
        errors.push(
          JSON.stringify({
            id: `batch_req_${++this.sequence}`,
            custom_id: line.custom_id,
            response: {
              status_code: 500,
              request_id: `req_${this.sequence}`,
              body: { error: { message: "the server had an error" } },
            },
            error: null,
          }),
        );
      } else {
        batch.request_counts.completed += 1;
        output.push(
          JSON.stringify({
            id: `batch_req_${++this.sequence}`,
            custom_id: line.custom_id,
            response: {
              status_code: 200,
              request_id: `req_${this.sequence}`,
              body: this.answerBody(line.body, line.custom_id),
            },
            error: null,
          }),
        );
      }
      if (this.behaviour.itemMs > 0) this.later(this.behaviour.itemMs, step);
      else step();
    };
    step();
  }

  private finish(
    batch: StandInBatch,
    output: string[],
    errors: string[],
    status: "completed" | "expired" | "cancelled",
  ): void {
    const file = (lines: string[], kind: string) => {
      if (lines.length === 0) return null;
      const id = `file-${++this.sequence}`;
      this.files.set(id, {
        purpose: "batch_output",
        filename: `${batch.id}_${kind}.jsonl`,
        text: `${lines.join("\n")}\n`,
      });
      return id;
    };
    Object.assign(batch, {
      status,
      output_file_id: file(output, "output"),
      error_file_id: file(errors, "error"),
      ...(status === "completed"
        ? { completed_at: now() }
        : status === "expired"
          ? { expired_at: now() }
          : { cancelled_at: now() }),
    });
  }

  private cancel(batch: StandInBatch): StandInBatch {
    if (batch.status === "validating") {
      Object.assign(batch, { status: "cancelled", cancelling_at: now(), cancelled_at: now() });
    } else if (batch.status === "in_progress") {
      Object.assign(batch, { status: "cancelling", cancelling_at: now() });
      // One with no pause between requests has finished already; one that pauses stops at its next step.
    }
    return batch;
  }

  private later(ms: number, work: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      work();
    }, ms);
    this.timers.add(timer);
  }
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

function json(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}
