/** One AWS SDK call as the client saw it: which service and command, and how long it took (ms), retries included. */
export interface AwsCall {
  readonly client: string;
  readonly command: string;
  readonly ms: number;
}

type Listener = (call: AwsCall) => void;
const listeners = new Set<Listener>();

/**
 * Observes every AWS SDK call of clients built with timeAwsCalls (the runtime's, through traceClient). For
 * benchmarks that separate the emulators' own latency from the service's work; returns the unsubscribe.
 */
export function onAwsCall(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

interface MiddlewareClient {
  readonly middlewareStack: {
    add(
      middleware: (
        next: (args: unknown) => Promise<unknown>,
        context: { clientName?: string; commandName?: string },
      ) => (args: unknown) => Promise<unknown>,
      options: { step: 'initialize'; name: string },
    ): void;
  };
}

/** Adds the timing middleware to a client; a call costs one Set size check while nobody listens. */
export function timeAwsCalls<T>(client: T): T {
  (client as unknown as MiddlewareClient).middlewareStack.add(
    (next, context) => async (args) => {
      if (listeners.size === 0) return next(args);
      const started = performance.now();
      try {
        return await next(args);
      } finally {
        const call = {
          client: context.clientName ?? 'unknown',
          command: context.commandName ?? 'unknown',
          ms: performance.now() - started,
        };
        for (const listener of listeners) listener(call);
      }
    },
    { step: 'initialize', name: 'rerankAwsCallTiming' },
  );
  return client;
}
