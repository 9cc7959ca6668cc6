import { timingSafeEqual } from "node:crypto";
import express from "express";
import { Registry } from "prom-client";
import { bearerKey } from "../../auth/api-key.service";
import { Config } from "../../config/config";
import { Logger } from "../../logging/logger";
import { sendError } from "./http-errors";

/**
 * Prometheus metrics: this process's counters and the database-wide gauges. With MEMICL_METRICS_TOKEN set, that
 * token (or, with keys on, any live key) is required; with keys on and no token, a key is.
 */
export function metricsRoute(
  config: Config,
  registry: Registry,
  requireKey: express.RequestHandler,
  logger: Logger,
): express.Router {
  const router = express.Router();
  router.get(
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
        response.setHeader("content-type", registry.contentType);
        response.end(await registry.metrics());
      } catch (error) {
        logger.error({ err: error }, "metrics failed");
        sendError(response, 500, "Internal server error", "INTERNAL_SERVER_ERROR");
      }
    },
  );
  return router;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
