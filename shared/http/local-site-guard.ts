import { isIP } from 'node:net';
import { RerankError } from '../core/rerank-error.js';

/** Headers the guard reads, lower-case names as Node gives them. */
export type HeaderReader = (name: 'host' | 'origin' | 'sec-fetch-site') => string | undefined;

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `example.com:3000` -> `example.com`; `[::1]:3000` -> `[::1]` (lower-case). */
function hostName(value: string): string {
  const host = value.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

const isIpLiteral = (name: string): boolean => isIP(name.startsWith('[') ? name.slice(1, -1) : name) !== 0;

/**
 * What a local server with NO keys accepts, so a web page the user visits cannot use it (SECURITY.md):
 * - Host: only names HOST implies (the loopback names, HOST itself; when HOST is a wildcard such as 0.0.0.0, also
 *   any IP literal and the machine's name), plus RERANK_ALLOWED_HOSTS. A DNS-rebinding page reaches the server
 *   under its own domain name, which is none of these, so it cannot list or read files.
 * - Cross-site writes: a POST/DELETE whose `Sec-Fetch-Site` is `cross-site`, or whose `Origin` is not this request's
 *   own origin (scheme `http`, and the host and port of its `Host`), is refused: a page served on another local port
 *   is another site. The request's own `Host` is the reference, so `/docs` reached through a port forward still posts. A form post needs no CORS preflight, so the JSON content-type rule alone never stopped a web page
 *   from posting multipart to `/v1/files` or an upload's parts.
 * With keys configured none of this applies: the page has no key.
 */
export class LocalSiteGuard {
  readonly #names: ReadonlySet<string>;
  readonly #anyIp: boolean;
  readonly #anyHost: boolean;

  constructor(options: { readonly host: string; readonly allowedHosts: readonly string[]; readonly machineName?: string }) {
    const host = hostName(
      options.host.includes(':') && !options.host.startsWith('[') && isIP(options.host) === 6 ? `[${options.host}]` : options.host,
    );
    const wildcard = WILDCARD_HOSTS.has(host);
    this.#anyIp = wildcard;
    this.#anyHost = options.allowedHosts.includes('*');
    this.#names = new Set([
      ...LOOPBACK_NAMES,
      host,
      ...(wildcard && options.machineName ? [options.machineName.toLowerCase()] : []),
      ...options.allowedHosts.map(hostName),
    ]);
  }

  /** Throws the refusal (a 401 in the route's envelope) for a request a key-less server must not answer. */
  check(method: string, header: HeaderReader): void {
    const host = hostName(header('host') ?? '');
    if (!this.#allowed(host)) {
      throw new RerankError(
        'unauthorized',
        `this server runs without API keys, so it answers only its own host names, not '${host.slice(0, 255)}' (set RERANK_ALLOWED_HOSTS to add one, or configure keys)`,
      );
    }
    if (SAFE_METHODS.has(method.toUpperCase())) return;
    const origin = header('origin');
    const crossSite =
      header('sec-fetch-site')?.toLowerCase() === 'cross-site' || (origin !== undefined && !sameOrigin(origin, header('host') ?? ''));
    if (crossSite) {
      throw new RerankError(
        'unauthorized',
        "this server runs without API keys, so it refuses requests sent by another site's web page (configure keys to call it from a browser)",
      );
    }
  }

  #allowed(host: string): boolean {
    return host !== '' && (this.#anyHost || this.#names.has(host) || (this.#anyIp && isIpLiteral(host)));
  }
}

/** True when `origin` is `http://` + the request's own Host (host and port, default port spelled or not). */
function sameOrigin(origin: string, host: string): boolean {
  try {
    const page = new URL(origin);
    const own = new URL(`http://${host.trim()}`);
    return page.protocol === 'http:' && page.host === own.host && own.pathname === '/' && own.username === '' && own.password === '';
  } catch {
    // `null` (a sandboxed frame, a file:// page) or garbage: not this server's own site.
    return false;
  }
}
