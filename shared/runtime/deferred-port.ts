/** How a port method answers: a promise, or an async iterable (a stream of records or bytes). */
type MethodKind<F> = F extends (...args: never[]) => AsyncIterable<unknown>
  ? 'stream'
  : F extends (...args: never[]) => Promise<unknown>
    ? 'promise'
    : never;

/**
 * Every method of a port with how it answers. Required methods must all be listed (the compiler checks the list against
 * the interface); an optional one is listed only when the adapter behind the port has it.
 */
export type PortShape<T> = { readonly [K in keyof T]: MethodKind<NonNullable<T[K]>> };

/**
 * A port whose adapter is built by `load` at the port's first call, so a process that never calls it never loads its
 * code (an adapter's SDK clients cost a cold start tens of ms to evaluate). Every method forwards its arguments to the
 * loaded adapter; `load` is called on each call and must return the same adapter each time (e.g. wrapped in buildOnce).
 */
export function deferredPort<T extends object>(load: () => Promise<T>, shape: PortShape<T>): T {
  const port: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(shape) as [string, 'stream' | 'promise'][]) {
    const call = async (args: unknown[]): Promise<unknown> => {
      const adapter = (await load()) as Record<string, (...a: unknown[]) => unknown>;
      return adapter[name]!(...args);
    };
    port[name] =
      kind === 'stream'
        ? async function* (...args: unknown[]): AsyncGenerator<unknown> {
            yield* (await call(args)) as AsyncIterable<unknown>;
          }
        : (...args: unknown[]): Promise<unknown> => call(args);
  }
  return port as T;
}
