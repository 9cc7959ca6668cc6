import express from "express";

/** Every answer outside GraphQL that is an error has GraphQL's shape: `{ errors: [{ message, extensions: { code } }] }`. */
export function sendError(response: express.Response, status: number, message: string, code: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.status(status).json({ errors: [{ message, extensions: { code } }] });
}

/** The last handler but one: an unknown route. */
export function notFound(_request: express.Request, response: express.Response): void {
  sendError(
    response,
    404,
    "no such route (the dashboard is at /, GraphQL at /graphql, liveness at /health, readiness at /ready, metrics at /metrics)",
    "NOT_FOUND",
  );
}

/**
 * The last handler: errors outside GraphQL (bad JSON, oversized bodies) as JSON. An error handler, so it is
 * mounted on the app itself (Express passes errors by routers that are not error handlers).
 */
export function errorHandler(logger: { error(details: object, message: string): void }) {
  return (
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
  };
}
