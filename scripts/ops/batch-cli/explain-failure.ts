import { RerankApiError, RerankNetworkError } from '../../../shared/client/index.js';

/** Where the CLI was pointed, and how it was told (for the hint: a flag, the environment, or the default). */
export interface CliTarget {
  readonly baseUrl: string;
  readonly from: '--base-url' | 'RERANK_BASE_URL' | 'default';
  readonly keyGiven: boolean;
}

/**
 * The CLI's last word on a failure: the error's own message, then what to do about it. No server answering names
 * the URL tried and how to start or point at one; a refused key names --key and RERANK_KEY.
 */
export function explainFailure(error: unknown, target: CliTarget): string {
  const message = `batch: ${error instanceof Error ? error.message : String(error)}`;
  if (error instanceof RerankNetworkError) {
    const pointed = target.from === 'default' ? 'the default URL' : `the URL from ${target.from}`;
    return (
      `${message}\n  no server answered at ${target.baseUrl} (${pointed}). Start one in the checkout with \`npm start\`, ` +
      'or point at a running one with --base-url URL or RERANK_BASE_URL=URL (a deployed API: its URL without /v1)'
    );
  }
  if (error instanceof RerankApiError && error.status === 401) {
    const key = target.keyGiven ? 'the key given was refused: check it' : 'no key was given';
    return `${message}\n  ${key}; pass it with --key <key> or RERANK_KEY=<key> (create one: npm run keys -- create --name me)`;
  }
  return message;
}
