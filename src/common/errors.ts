/** The closed set of codes that expected request errors carry on `extensions.code`. */
export type ErrorCode = "BAD_USER_INPUT" | "NOT_FOUND" | "CONFLICT" | "FORBIDDEN" | "UNAUTHENTICATED";

/** An expected failure, reported to the client as it is; anything else is masked. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export class NotFoundError extends DomainError {
  constructor(kind: string, id: string) {
    super("NOT_FOUND", `${kind} ${id} does not exist`, { kind, id });
  }
}

export class BadInputError extends DomainError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("BAD_USER_INPUT", message, details);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("CONFLICT", message, details);
  }
}
