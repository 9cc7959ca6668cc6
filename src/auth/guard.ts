import { ApolloServerPlugin } from "@apollo/server";
import express from "express";
import { DocumentNode, GraphQLError, GraphQLSchema } from "graphql";
import { Config } from "../config/config";
import { ApiKeyService, bearerKey, Principal } from "./api-key.service";
import { allows, requiredRole } from "./roles";

/** Locals the authentication middleware leaves for later handlers. */
export interface AuthLocals {
  principal: Principal | null;
}

function refuse(response: express.Response, status: number, message: string, code: string) {
  response.status(status).json({ errors: [{ message, extensions: { code } }] });
}

/**
 * With `MEMICL_AUTH=keys`, every request through this middleware needs a live key (`Authorization: Bearer
 * <key>`): 401 without one. The key's principal is left in `response.locals.principal`. With authentication off
 * it lets everything through, with no principal.
 */
export function authenticate(config: Config, keys: ApiKeyService): express.RequestHandler {
  return async (request, response, next) => {
    response.locals.principal = null;
    if (config.auth !== "keys") return next();
    const key = bearerKey(request.headers.authorization);
    if (!key) {
      response.setHeader("www-authenticate", 'Bearer realm="memicl"');
      return refuse(response, 401, "an API key is required: Authorization: Bearer <key>", "UNAUTHENTICATED");
    }
    try {
      const principal = await keys.authenticate(key);
      if (!principal) return refuse(response, 401, "unknown or revoked API key", "UNAUTHENTICATED");
      response.locals.principal = principal;
      next();
    } catch (error) {
      next(error);
    }
  };
}

/**
 * `requireKey` for the routes outside GraphQL that serve study data (exports, metrics): a blind reviewer's key is
 * refused there whole (403), since such a route serves verdicts, other reviewers and the model together, and
 * counters that change with each review. A blind reviewer reads its queue through GraphQL, field by field.
 */
export function refusingBlind(requireKey: express.RequestHandler): express.RequestHandler {
  return (request, response, next) =>
    requireKey(request, response, (error?: unknown) => {
      if (error) return next(error);
      const principal = (response.locals as AuthLocals).principal;
      if (principal?.blind)
        return refuse(
          response,
          403,
          `this key ("${principal.name}") reviews blind: it may not read ${request.path}. A blind reviewer reads ` +
            "its review queue through /graphql and records reviews; exports and metrics carry verdicts.",
          "FORBIDDEN",
        );
      next();
    });
}

/** Why a principal may not run an operation (the role rules of roles.ts), or null when it may. */
export function accessRefusal(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  principal: Principal | null,
): GraphQLError | null {
  if (!principal)
    return new GraphQLError("an API key is required", {
      extensions: { code: "UNAUTHENTICATED", http: { status: 401 } },
    });
  const { role, unknownMutations, outsideBlind } = requiredRole(schema, document, operationName);
  if (unknownMutations.length > 0)
    return new GraphQLError(`no access rule for ${unknownMutations.join(", ")}: refused`, {
      extensions: { code: "FORBIDDEN", http: { status: 403 } },
    });
  if (principal.blind && outsideBlind.length > 0)
    return new GraphQLError(
      `this key ("${principal.name}") reviews blind: it may not read ${outsideBlind.slice(0, 8).join(", ")}` +
        `${outsideBlind.length > 8 ? ` and ${outsideBlind.length - 8} more` : ""}. A blind reviewer reads the review ` +
        "queue (the answer, the instance's texts, the setting and k) and records reviews; automatic verdicts, " +
        "other reviewers' verdicts, the provider and the model stay hidden",
      { extensions: { code: "FORBIDDEN", http: { status: 403 }, fields: outsideBlind } },
    );
  if (!allows(principal.role, role))
    return new GraphQLError(
      `this key ("${principal.name}", role ${principal.role}) may not do this: it needs the ${role} role`,
      { extensions: { code: "FORBIDDEN", http: { status: 403 } } },
    );
  return null;
}

/**
 * Checks each GraphQL operation, before it runs, against the role rules of roles.ts: the strictest rule over every
 * field it selects must be within the key's role. A mutation without a rule is refused while authentication is on.
 */
export function authorizationPlugin<Context extends { principal: Principal | null }>(
  config: Config,
): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operationName, contextValue, schema }) {
          if (config.auth !== "keys") return;
          const refusal = accessRefusal(schema, document, operationName, contextValue.principal);
          if (refusal) throw refusal;
        },
      };
    },
  };
}
