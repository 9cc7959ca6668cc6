import { timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { AddressInfo } from "node:net";
import path from "node:path";
import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginDrainHttpServer } from "@apollo/server/plugin/drainHttpServer";
import { expressMiddleware } from "@as-integrations/express5";
import cors from "cors";
import express from "express";
import { Registry } from "prom-client";
import { createContext } from "../app/context";
import { createServices } from "../app/services";
import { startWorkers } from "../app/workers";
import { bearerKey } from "../auth/api-key.service";
import { AuthLocals, authenticate, authorizationPlugin } from "../auth/guard";
import { DomainError } from "../common/errors";
import { scrubSecrets } from "../common/secrets";
import { Config, ConfigError } from "../config/config";
import { Database } from "../db/database";
import { Context } from "../graphql/context";
import { Logger } from "../logging/logger";
import { graphqlMetricsPlugin } from "../observability/graphql-metrics";
import { collectProcessMetrics, databaseRegistry, processRegistry } from "../observability/metrics";
import { exportCompletions } from "../report/export.service";
import { startReportRowRefresher } from "../report/report-row.service";
import { formatError } from "./errors";
import { countQueryTokens, queryLimitRules } from "./query-limits";
import { requestRefusal } from "./request-guard";
import { createSchema } from "./schema";
import { startSubscriptions } from "./subscriptions";

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts the HTTP server: GraphQL at /graphql, liveness at /health. */
export async function startServer(
  config: Config,
  logger: Logger,
  database: Database,
): Promise<RunningServer> {
  const services = createServices(database, config, logger);
  const workers =
    config.inProcessWorkers > 0
      ? await startWorkers(services, config, { role: "serve", concurrency: config.inProcessWorkers, logger })
      : null;
  const metricRefresher = startReportRowRefresher(services.reportRows, logger);
  const app = express();
  app.disable("x-powered-by");
  // Before anything else: a request must name this server (no DNS rebinding) and come from no web page but its own.
  app.use((request, response, next) => {
    // Liveness and readiness reveal nothing and are probed by address (a container's, a pod's): always served.
    if (request.method === "GET" && (request.path === "/health" || request.path === "/ready")) return next();
    const refusal = requestRefusal(request.headers, config);
    if (!refusal) return next();
    logger.warn({ host: request.headers.host, origin: request.headers.origin }, "refused a request");
    sendError(response, 403, refusal, "FORBIDDEN");
  });
  const httpServer = http.createServer(app);
  // A request (headers and body) must arrive within a minute: a client trickling a body holds a socket no longer.
  httpServer.requestTimeout = 60_000;
  httpServer.headersTimeout = 20_000;
  const schema = await createSchema();
  const subscriptions = startSubscriptions(httpServer, schema, config, services, logger);
  const apollo = new ApolloServer<Context>({
    schema,
    formatError: formatError(logger),
    validationRules: queryLimitRules(config),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      authorizationPlugin<Context>(config),
      graphqlMetricsPlugin<Context>(),
    ],
    introspection: true,
    // memicl serve owns shutdown (HTTP, then database, then the data-folder lock).
    stopOnTerminationSignals: false,
  });
  await apollo.start();

  app.get("/health", async (_request, response) => {
    try {
      await database.dataSource.query("SELECT 1");
      response.json({ status: "ok", database: database.mode });
    } catch {
      response.status(503).json({ status: "unavailable", database: database.mode });
    }
  });
  // Ready: the database answers, every migration is applied, and the job queue has started.
  app.get("/ready", async (_request, response) => {
    const checks: Record<string, string> = {};
    const check = async (name: string, probe: () => Promise<void>) => {
      try {
        await Promise.race([
          probe(),
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error("no answer within 5 s")), 5_000).unref(),
          ),
        ]);
        checks[name] = "ok";
      } catch (error) {
        checks[name] = scrubSecrets((error as Error).message).slice(0, 200);
      }
    };
    await check("database", async () => {
      await database.dataSource.query("SELECT 1");
    });
    await check("migrations", async () => {
      if (await database.dataSource.showMigrations())
        throw new Error("migrations are pending: run memicl migrate");
    });
    await check("queue", () => services.queue.start());
    const ready = Object.values(checks).every((value) => value === "ok");
    response.status(ready ? 200 : 503).json({ status: ready ? "ready" : "not ready", checks });
  });

  const requireKey = authenticate(config, services.apiKeys);
  // Prometheus metrics: this process's counters and the database-wide gauges. With MEMICL_METRICS_TOKEN set, that
  // token (or, with keys on, any live key) is required; with keys on and no token, a key is.
  collectProcessMetrics();
  const metricsRegistry = Registry.merge([
    processRegistry,
    databaseRegistry(database.dataSource, async () => (await services.workers.live()).length),
  ]);
  app.get(
    "/metrics",
    (request, response, next) => {
      const bearer = bearerKey(request.headers.authorization);
      if (config.metricsToken && bearer && sameSecret(bearer, config.metricsToken)) return next();
      if (config.metricsToken && config.auth !== "keys")
        return sendError(
          response,
          401,
          "the metrics token is required: Authorization: Bearer <token>",
          "UNAUTHENTICATED",
        );
      return requireKey(request, response, next);
    },
    async (_request, response) => {
      try {
        response.setHeader("content-type", metricsRegistry.contentType);
        response.end(await metricsRegistry.metrics());
      } catch (error) {
        logger.error({ err: error }, "metrics failed");
        sendError(response, 500, "Internal server error", "INTERNAL_SERVER_ERROR");
      }
    },
  );
  // Streamed exports of an experiment's completions with every judgment (CSV or JSONL): any live key may read.
  app.get("/export/experiments/:id/completions.:format", requireKey, async (request, response) => {
    const { id, format } = request.params as { id: string; format: string };
    if (format !== "csv" && format !== "jsonl") {
      response.status(400).json({ error: "format must be csv or jsonl" });
      return;
    }
    try {
      response.setHeader(
        "content-type",
        format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson",
      );
      response.setHeader("content-disposition", `attachment; filename="completions-${id}.${format}"`);
      await exportCompletions(database.dataSource, id, format, response);
      response.end();
    } catch (error) {
      if (error instanceof DomainError && !response.headersSent) {
        response.status(error.code === "NOT_FOUND" ? 404 : 400).json({ error: error.message });
      } else {
        logger.error({ err: error }, "export failed");
        if (!response.headersSent) response.status(500).json({ error: "Internal server error" });
        else response.destroy();
      }
    }
  });

  app.use(
    "/graphql",
    // Browsers may call only from the origins configured; none by default. (Apollo's CSRF prevention stays on.)
    ...(config.corsOrigins.length > 0 ? [cors({ origin: config.corsOrigins })] : []),
    requireKey,
    express.json({ limit: Math.ceil(config.maxInlineImportBytes * 1.1) + 1_000_000 }),
    (request: express.Request, response: express.Response, next: express.NextFunction) => {
      const query = (request.body as { query?: unknown } | undefined)?.query;
      if (
        typeof query === "string" &&
        countQueryTokens(query, config.maxQueryTokens) > config.maxQueryTokens
      ) {
        sendError(
          response,
          400,
          `the query has more than ${config.maxQueryTokens} tokens (MEMICL_MAX_QUERY_TOKENS)`,
          "GRAPHQL_VALIDATION_FAILED",
        );
        return;
      }
      next();
    },
    expressMiddleware(apollo, {
      context: async ({ res }) =>
        createContext(config, services, logger, (res.locals as AuthLocals).principal),
    }),
  );
  // The dashboard: a static page built by `npm run build` (web/ -> dist/web) that speaks only to /graphql.
  const webDir = dashboardDirectory();
  if (webDir) {
    app.use(
      express.static(webDir, {
        index: "index.html",
        setHeaders: (response, file) =>
          response.setHeader(
            "cache-control",
            file.includes(`${path.sep}assets${path.sep}`)
              ? "public, max-age=31536000, immutable"
              : "no-cache",
          ),
      }),
    );
  } else {
    app.get("/", (_request, response) => {
      response
        .status(503)
        .type("text/plain")
        .send("The dashboard is not built: run `npm run build` (GraphQL is at /graphql).\n");
    });
  }
  // Everything else, and every error outside GraphQL, answers JSON in GraphQL's shape: no HTML, no stack.
  app.use((_request: express.Request, response: express.Response) =>
    sendError(
      response,
      404,
      "no such route (the dashboard is at /, GraphQL at /graphql, liveness at /health, readiness at /ready, metrics at /metrics)",
      "NOT_FOUND",
    ),
  );
  app.use(
    (
      error: Error & { status?: number; type?: string },
      _request: express.Request,
      response: express.Response,
      _next: express.NextFunction,
    ) => {
      if (error.type === "entity.parse.failed")
        return sendError(response, 400, "the request body is not valid JSON", "BAD_REQUEST");
      if (error.type === "entity.too.large")
        return sendError(
          response,
          413,
          "the request body is too large (MEMICL_MAX_INLINE_IMPORT_BYTES)",
          "PAYLOAD_TOO_LARGE",
        );
      if (error.status && error.status >= 400 && error.status < 500)
        return sendError(response, error.status, "the request could not be read", "BAD_REQUEST");
      logger.error({ err: error }, "unexpected error outside GraphQL");
      return sendError(response, 500, "Internal server error", "INTERNAL_SERVER_ERROR");
    },
  );

  const close = async () => {
    await subscriptions.close();
    await apollo.stop();
    await workers?.stop();
    await metricRefresher.stop();
    await services.close();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      httpServer.once("error", reject);
      httpServer.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    // Nothing started here may outlive the failure: the workers, the queue and the pools would keep the process up.
    await close().catch((failure) =>
      logger.warn({ err: failure }, "could not stop cleanly after failing to listen"),
    );
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE")
      throw new ConfigError(
        `cannot listen on ${config.host}:${config.port}: the port is in use; set PORT to a free one (PORT=0 picks any)`,
      );
    throw error;
  }
  const port = (httpServer.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/graphql`, port, close };
}

/** dist/web of this checkout (from src/api when run from source, from dist/src/api when built), if built. */
export function dashboardDirectory(): string | null {
  for (const candidate of [
    path.resolve(__dirname, "../../../dist/web"),
    path.resolve(__dirname, "../../dist/web"),
  ]) {
    if (fs.existsSync(path.join(candidate, "index.html"))) return candidate;
  }
  return null;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sendError(response: express.Response, status: number, message: string, code: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.status(status).json({ errors: [{ message, extensions: { code } }] });
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** Is `host` reachable only from this machine? */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}
