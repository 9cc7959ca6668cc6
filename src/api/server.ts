import http from "node:http";
import { AddressInfo } from "node:net";
import { ApolloServer, ApolloServerPlugin, BaseContext } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled } from "@apollo/server/plugin/disabled";
import { ApolloServerPluginDrainHttpServer } from "@apollo/server/plugin/drainHttpServer";
import { expressMiddleware } from "@as-integrations/express5";
import cors from "cors";
import express from "express";
import { Registry } from "prom-client";
import { createContext } from "../app/context";
import { createServices } from "../app/services";
import { startWorkers } from "../app/workers";
import { AuthLocals, authenticate, authorizationPlugin, refusingBlind } from "../auth/guard";
import { Config, ConfigError } from "../config/config";
import { Database } from "../db/database";
import { Context } from "../graphql/context";
import { Logger } from "../logging/logger";
import { graphqlMetricsPlugin } from "../observability/graphql-metrics";
import { collectProcessMetrics, databaseRegistry, processRegistry } from "../observability/metrics";
import { startReportRowRefresher } from "../report/report-row.service";
import { formatError } from "./errors";
import { countQueryTokens, queryLimitRules } from "./query-limits";
import { requestRefusal } from "./request-guard";
import { dashboardRoutes } from "./routes/dashboard";
import { exportRoutes } from "./routes/exports";
import { healthRoutes } from "./routes/health";
import { errorHandler, notFound, sendError } from "./routes/http-errors";
import { metricsRoute } from "./routes/metrics";
import { createSchema } from "./schema";
import { startSubscriptions } from "./subscriptions";

export interface RunningServer {
  url: string;
  port: number;
  /** Every route the app answers outside GraphQL and the dashboard's files, as `GET /path` (tests walk them). */
  routes: readonly string[];
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
  // The built-in templates, written (or found) now rather than on the first prompt a request renders.
  services.templates
    .ensureDefaults()
    .catch((error) =>
      logger.warn({ err: error }, "could not write the built-in templates; the first prompt will"),
    );
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
      // Apollo's cache-control plugin, on by default, wraps every field's resolver to collect cache hints that
      // memicl never sets, only to answer `no-store`: a tenth of executing a report's query. Off; `no-store` kept.
      ApolloServerPluginCacheControlDisabled(),
      noStore<Context>(),
    ],
    introspection: true,
    // memicl serve owns shutdown (HTTP, then database, then the data-folder lock).
    stopOnTerminationSignals: false,
  });
  await apollo.start();

  app.use(healthRoutes(database, services.queue));
  const requireKey = authenticate(config, services.apiKeys);
  collectProcessMetrics();
  const metricsRegistry = Registry.merge([
    processRegistry,
    databaseRegistry(database.dataSource, async () => (await services.workers.live()).length),
  ]);
  // Data leaves outside GraphQL here: a blind reviewer's key reads none of it.
  const requireSeeingKey = refusingBlind(requireKey);
  app.use(metricsRoute(config, metricsRegistry, requireSeeingKey, logger));
  app.use(exportRoutes(database.dataSource, services.report, requireSeeingKey, logger));

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
  app.use(dashboardRoutes());
  // Everything else, and every error outside GraphQL, answers JSON in GraphQL's shape: no HTML, no stack.
  app.use(notFound);
  app.use(errorHandler(logger));

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
  return { url: `http://127.0.0.1:${port}/graphql`, port, routes: routesOf(app), close };
}

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
}

/** The routes of an app and its routers, as `METHOD /path` (mounted middleware such as /graphql is not listed). */
function routesOf(app: express.Express): string[] {
  const found: string[] = [];
  const walk = (stack: RouterLayer[]) => {
    for (const layer of stack) {
      if (layer.route)
        for (const method of Object.keys(layer.route.methods))
          found.push(`${method.toUpperCase()} ${layer.route.path}`);
      else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: RouterLayer[] } }).router.stack);
  return found;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** Is `host` reachable only from this machine? */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Every GraphQL answer is marked `cache-control: no-store`: study data, behind a key, for no shared cache. */
function noStore<T extends BaseContext>(): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          response.http.headers.set("cache-control", "no-store");
        },
      };
    },
  };
}
