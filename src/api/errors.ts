import { unwrapResolverError } from "@apollo/server/errors";
import { GraphQLFormattedError } from "graphql";
import { ArgumentValidationError } from "type-graphql";
import { DomainError } from "../common/errors";
import { ImportError } from "../dataset/import/import.errors";
import { Logger } from "../logging/logger";

const CLIENT_CODES = new Set([
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "BAD_USER_INPUT",
  "PERSISTED_QUERY_NOT_FOUND",
  "PERSISTED_QUERY_NOT_SUPPORTED",
  "OPERATION_RESOLUTION_FAILURE",
  "BAD_REQUEST",
  // Thrown before execution by the authorization plugin (src/auth/guard.ts).
  "UNAUTHENTICATED",
  "FORBIDDEN",
]);

/**
 * The one place errors become GraphQL errors: domain errors keep their code and message,
 * input errors become BAD_USER_INPUT, everything else is logged and masked.
 */
export function formatError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const path = formatted.path;
    if (original instanceof DomainError) {
      return { message: original.message, path, extensions: { code: original.code, ...original.details } };
    }
    if (original instanceof ImportError) {
      return {
        message: original.message,
        path,
        extensions: { code: "BAD_USER_INPUT", line: original.line, problem: original.problem },
      };
    }
    if (original instanceof ArgumentValidationError) {
      type Problem = { property: string; constraints?: Record<string, string>; children?: Problem[] };
      const problems = original.extensions.validationErrors as Problem[];
      // Nested inputs (a judge inside startRun) report their own fields' constraints, not "judge is invalid".
      const messagesOf = (problem: Problem): string[] =>
        problem.constraints
          ? Object.values(problem.constraints)
          : problem.children && problem.children.length > 0
            ? problem.children.flatMap(messagesOf)
            : [`${problem.property} is invalid`];
      const messages = problems.flatMap(messagesOf);
      return {
        message: `invalid input: ${messages.join("; ")}`,
        path,
        extensions: {
          code: "BAD_USER_INPUT",
          validationErrors: problems.map(({ property, constraints }) => ({ property, constraints })),
        },
      };
    }
    const rejected = rejectedValue(original);
    if (rejected) return { message: rejected, path, extensions: { code: "BAD_USER_INPUT" } };
    const code = formatted.extensions?.code;
    if (typeof code === "string" && CLIENT_CODES.has(code)) {
      return { message: formatted.message, locations: formatted.locations, path, extensions: { code } };
    }
    logger.error({ err: original, path }, "unexpected error while answering a GraphQL request");
    return { message: "Internal server error", path, extensions: { code: "INTERNAL_SERVER_ERROR" } };
  };
}

/**
 * PostgreSQL's data exceptions that only a value from the request can cause (an id that is not a uuid or a
 * number, a NUL character in a filter string, a number out of range): the request is at fault, and the
 * database's one-line reason (which names neither SQL nor files) says why.
 */
const VALUE_ERRORS: Record<string, string> = {
  "22P02": "a value in the request has the wrong form",
  "22021": "a value in the request holds a character PostgreSQL cannot store (NUL)",
  // A NUL in a value stored as JSON (a judge's model name, say).
  "22P05": "a value in the request holds a character PostgreSQL cannot store (NUL)",
  "22003": "a number in the request is out of range",
  "22007": "a date in the request has the wrong form",
  "22008": "a date in the request is out of range",
  "22001": "a value in the request is too long",
};

function rejectedValue(error: unknown): string | null {
  const driverError = (error as { driverError?: { code?: string; message?: string } } | null)?.driverError;
  const code = driverError?.code;
  if (!code || !(code in VALUE_ERRORS)) return null;
  const reason = (driverError.message ?? "").split("\n")[0].slice(0, 300);
  return `${VALUE_ERRORS[code]}: ${reason.replaceAll("\u0000", "\\0")}`;
}
