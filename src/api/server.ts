import http from "node:http";
import { AddressInfo } from "node:net";
import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginDrainHttpServer } from "@apollo/server/plugin/drainHttpServer";
import { expressMiddleware } from "@as-integrations/express5";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import cors from "cors";
import express from "express";
import { DomainError } from "../common/errors";
import { Config } from "../config/config";
import { Database } from "../db/database";
import { Logger } from "../logging/logger";
import { exportCompletions } from "../metric/export.service";
import { startWorkers } from "../worker/workers";
import { Context, createContext } from "./context";
import { formatError } from "./errors";
import { createSchema } from "./schema";
import { createServices } from "./services";

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
  const app = express();
  const httpServer = http.createServer(app);
  const apollo = new ApolloServer<Context>({
    schema: await createSchema(),
    formatError: formatError(logger),
    validationRules: [
      maxDepthRule({
        n: config.maxQueryDepth,
        ignoreIntrospection: true,
        // Report as a validation error (GRAPHQL_VALIDATION_FAILED) rather than throwing out of validation.
        propagateOnRejection: false,
        onReject: [(context, error) => context?.reportError(error)],
      }),
    ],
    plugins: [ApolloServerPluginDrainHttpServer({ httpServer })],
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
  // Streamed exports of an experiment's completions with every judgment (CSV or JSONL).
  app.get("/export/experiments/:id/completions.:format", async (request, response) => {
    const format = request.params.format;
    if (format !== "csv" && format !== "jsonl") {
      response.status(400).json({ error: "format must be csv or jsonl" });
      return;
    }
    try {
      response.setHeader(
        "content-type",
        format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson",
      );
      response.setHeader(
        "content-disposition",
        `attachment; filename="completions-${request.params.id}.${format}"`,
      );
      await exportCompletions(database.dataSource, request.params.id, format, response);
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
    cors(),
    express.json({ limit: Math.ceil(config.maxInlineImportBytes * 1.1) + 1_000_000 }),
    expressMiddleware(apollo, { context: async () => createContext(config, services, logger) }),
  );

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(config.port, "0.0.0.0", () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    port,
    async close() {
      await apollo.stop();
      await workers?.stop();
      await services.close();
    },
  };
}
