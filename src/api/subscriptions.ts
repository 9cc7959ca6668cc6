import http from "node:http";
import {
  DocumentNode,
  ExecutionArgs,
  GraphQLError,
  GraphQLFormattedError,
  GraphQLSchema,
  parse,
  specifiedRules,
  validate,
} from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { createContext } from "../app/context";
import { Services } from "../app/services";
import { bearerKey, Principal } from "../auth/api-key.service";
import { accessRefusal } from "../auth/guard";
import { Config } from "../config/config";
import { Logger } from "../logging/logger";
import { formatError } from "./errors";
import { countQueryTokens, queryLimitRules } from "./query-limits";
import { requestRefusal } from "./request-guard";

type Extra = {
  /** The bearer key the connection was opened with (keys on), checked again before every operation. */
  key?: string | null;
  principal?: Principal | null;
  /** When the key was last found valid (milliseconds): a streaming subscription checks it again after a while. */
  checkedAt?: number;
};

/** How long a key found valid serves a subscription's events before it is checked again. */
const KEY_RECHECK_MS = 2_000;

/** The largest message a socket takes: an inline import's limit, as over HTTP, plus room for the query. */
function maxPayloadOf(config: Config): number {
  return Math.ceil(config.maxInlineImportBytes * 1.1) + 1_000_000;
}

/**
 * GraphQL over graphql-ws on the same path as queries (`/graphql`), with every protection HTTP has: the upgrade
 * is refused for a foreign Origin or Host; the message size, the token limit, the depth and cost rules and the
 * role rules apply to each operation; a key revoked while the socket is open is refused from its next operation
 * on (and the socket closed); errors are formatted and masked as over HTTP.
 */
export function startSubscriptions(
  httpServer: http.Server,
  schema: GraphQLSchema,
  config: Config,
  services: Services,
  logger: Logger,
): { close(): Promise<void> } {
  const wsServer = new WebSocketServer({
    server: httpServer,
    path: "/graphql",
    maxPayload: maxPayloadOf(config),
    verifyClient: (info, done) => {
      const refusal = requestRefusal({ host: info.req.headers.host, origin: info.origin }, config);
      if (!refusal) return done(true);
      logger.warn({ host: info.req.headers.host, origin: info.origin }, "refused a WebSocket upgrade");
      done(false, 403, refusal);
    },
  });
  const rules = [...specifiedRules, ...queryLimitRules(config)];
  const format = formatError(logger);
  const formatAll = (errors: readonly GraphQLError[]): GraphQLFormattedError[] =>
    errors.map((error) => format(error.toJSON(), error));
  const refused = (message: string, code: string) => [new GraphQLError(message, { extensions: { code } })];

  const server = useServer<Record<string, unknown>, Extra>(
    {
      schema,
      onConnect: async (ctx) => {
        ctx.extra.principal = null;
        ctx.extra.key = null;
        if (config.auth !== "keys") return true;
        const header = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
        const key = bearerKey(typeof header === "string" ? header : undefined);
        const principal = key ? await services.apiKeys.authenticate(key) : null;
        if (!principal) return false; // closes the socket: 4403 Forbidden
        ctx.extra.key = key;
        ctx.extra.principal = principal;
        ctx.extra.checkedAt = Date.now();
        return true;
      },
      onSubscribe: async (ctx, _id, payload): Promise<ExecutionArgs | readonly GraphQLError[]> => {
        if (config.auth === "keys") {
          // The key may have been revoked since the socket opened: checked again for every operation.
          const principal = ctx.extra.key ? await services.apiKeys.authenticate(ctx.extra.key) : null;
          if (!principal) {
            setImmediate(() => ctx.extra.socket.close(4403, "Forbidden: the API key is no longer valid"));
            return refused("the API key is no longer valid (revoked)", "UNAUTHENTICATED");
          }
          ctx.extra.principal = principal;
        }
        if (countQueryTokens(payload.query, config.maxQueryTokens) > config.maxQueryTokens)
          return refused(
            `the query has more than ${config.maxQueryTokens} tokens (MEMICL_MAX_QUERY_TOKENS)`,
            "GRAPHQL_VALIDATION_FAILED",
          );
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: config.maxQueryTokens });
        } catch (error) {
          return refused((error as GraphQLError).message, "GRAPHQL_PARSE_FAILED");
        }
        let problems: readonly GraphQLError[];
        try {
          problems = validate(schema, document, rules);
        } catch (error) {
          // A rule that cannot walk the document (a fragment chain too deep for the stack) refuses it.
          logger.warn({ err: error }, "a WebSocket operation could not be validated");
          return refused("the query could not be validated (too deeply nested)", "GRAPHQL_VALIDATION_FAILED");
        }
        if (problems.length > 0)
          return problems.map(
            (problem) =>
              new GraphQLError(problem.message, {
                nodes: problem.nodes,
                extensions: {
                  ...problem.extensions,
                  code: problem.extensions.code ?? "GRAPHQL_VALIDATION_FAILED",
                },
              }),
          );
        if (config.auth === "keys") {
          const refusal = accessRefusal(schema, document, payload.operationName, ctx.extra.principal ?? null);
          if (refusal) return [refusal];
        }
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: createContext(config, services, logger, ctx.extra.principal ?? null),
        };
      },
      onNext: async (ctx, _id, _payload, _args, result) => {
        // A key revoked while its subscription streams ends it: checked again before an event once the last
        // check is older than KEY_RECHECK_MS (a subscription opened before `keys revoke` streamed on before).
        if (config.auth === "keys" && Date.now() - (ctx.extra.checkedAt ?? 0) > KEY_RECHECK_MS) {
          const principal = ctx.extra.key ? await services.apiKeys.authenticate(ctx.extra.key) : null;
          if (!principal) {
            setImmediate(() => ctx.extra.socket.close(4403, "Forbidden: the API key is no longer valid"));
            return {
              errors: formatAll(refused("the API key is no longer valid (revoked)", "UNAUTHENTICATED")),
            };
          }
          ctx.extra.principal = principal;
          ctx.extra.checkedAt = Date.now();
        }
        return result.errors ? { ...result, errors: formatAll(result.errors) } : undefined;
      },
      onError: (_ctx, _id, _payload, errors) => {
        logger.warn({ errors: errors.map((error) => error.message) }, "subscription error");
        return formatAll(errors);
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
