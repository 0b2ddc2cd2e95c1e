/**
 * Whether a local server lets callers in without a key. Decided once at start-up and only ever
 * narrowed: revoking every key or moving the key file never opens a server that required keys.
 */
export interface OpenAccess {
  /** true = callers need no key. */
  isOpen(): boolean;
  /** One line for the start-up banner. */
  readonly description: string;
}
