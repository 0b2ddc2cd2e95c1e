import { RerankError } from '../core/rerank-error.js';

/**
 * What was wrong with a request's credentials, as far as the headers show it (never the key itself):
 * - `missing`: no credential at all;
 * - `misplaced`: a credential in a place or scheme this service does not read (`found` says which, in words);
 * - `unknown`: a key read where it belongs, that no key of this service matches.
 */
export type CredentialProblem =
  | { readonly kind: 'missing' }
  | { readonly kind: 'misplaced'; readonly found: string }
  | { readonly kind: 'unknown' };

const DEFAULT_MESSAGES: Readonly<Record<CredentialProblem['kind'], string>> = {
  missing: 'missing API key',
  misplaced: 'API key not sent where this service reads it',
  unknown: 'invalid API key',
};

/**
 * A refused credential. Its message is generic: the HTTP layer, which knows the dialect's clients, rewrites it to
 * say where those clients put the key (describeRefusal).
 */
export class CredentialRefusedError extends RerankError {
  readonly problem: CredentialProblem;

  constructor(problem: CredentialProblem) {
    super(
      'unauthorized',
      problem.kind === 'misplaced' ? `${DEFAULT_MESSAGES.misplaced}: ${problem.found}` : DEFAULT_MESSAGES[problem.kind],
    );
    this.name = 'CredentialRefusedError';
    this.problem = problem;
  }
}
