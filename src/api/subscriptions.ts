import http from "node:http";
import { GraphQLSchema, parse, specifiedRules, validate } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { bearerKey, Principal } from "../auth/api-key.service";
import { accessRefusal } from "../auth/guard";
import { Config } from "../config/config";
import { Logger } from "../logging/logger";
import { Context, createContext } from "./context";
import { queryLimitRules } from "./query-limits";
import { Services } from "./services";

type Extra = {
  principal?: Principal | null;
};

/**
 * GraphQL subscriptions over graphql-ws on the same path as queries (`/graphql`). With keys on, the connection's
 * init payload carries `authorization: "Bearer <key>"`, and each subscription is checked against the same role
 * rules as HTTP requests; the same query limits apply.
 */
export function startSubscriptions(
  httpServer: http.Server,
  schema: GraphQLSchema,
  config: Config,
  services: Services,
  logger: Logger,
): { close(): Promise<void> } {
  const wsServer = new WebSocketServer({ server: httpServer, path: "/graphql" });
  const rules = [...specifiedRules, ...queryLimitRules(config)];
  const server = useServer<Record<string, unknown>, Extra>(
    {
      schema,
      validate: (validatedSchema, document) => validate(validatedSchema, document, rules),
      context: (ctx): Context => createContext(config, services, logger, ctx.extra.principal ?? null),
      onConnect: async (ctx) => {
        ctx.extra.principal = null;
        if (config.auth !== "keys") return true;
        const header = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
        const key = bearerKey(typeof header === "string" ? header : undefined);
        const principal = key ? await services.apiKeys.authenticate(key) : null;
        if (!principal) return false; // closes the socket: 4403 Forbidden
        ctx.extra.principal = principal;
        return true;
      },
      onSubscribe: (ctx, _id, payload) => {
        if (config.auth !== "keys") return;
        let document: ReturnType<typeof parse>;
        try {
          document = parse(payload.query);
        } catch {
          return; // graphql-ws reports the syntax error itself
        }
        const refusal = accessRefusal(schema, document, payload.operationName, ctx.extra.principal ?? null);
        if (refusal) return [refusal];
      },
      onError: (_ctx, _id, _payload, errors) => {
        logger.warn({ errors: errors.map((error) => error.message) }, "subscription error");
      },
    },
    wsServer,
  );
  let closing: Promise<void> | null = null;
  return {
    /** Closes every subscription and the WebSocket server (graphql-ws's dispose closes both); idempotent. */
    close() {
      closing ??= Promise.resolve(server.dispose());
      return closing;
    },
  };
}
