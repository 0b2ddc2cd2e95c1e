/** Base of the errors the auth module throws on bad input (never carrying a key). */
class ApiKeyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ApiKeyError';
  }
}

/** A key name or limit that cannot be stored. */
export class InvalidApiKeyOptionsError extends ApiKeyError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvalidApiKeyOptionsError';
  }
}
