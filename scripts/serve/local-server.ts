import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { LocalSiteGuard } from '../../shared/http/local-site-guard.js';
import { isUnroutableTarget, unroutableTargetError } from '../../shared/http/request-target.js';
import { handler as apiHandler } from '../../functions/api/handler.js';
import { failureResult } from '../../shared/http/api-app.js';
import {
  API_GATEWAY_MAX_BODY_BYTES,
  drainBody,
  localLambdaContext,
  OVERSIZE_BODY_DRAIN_BYTES,
  readBodyCapped,
  toApiGatewayEvent,
  writeApiGatewayResult,
} from '../../shared/http/node-http-adapter.js';
import { beforeBody, oversizeBodyResult } from '../../shared/http/refuse-before-body.js';
import { authorizationOf } from '../../shared/auth/presented-key.js';
import { describeRefusal } from '../../shared/http/describe-refusal.js';
import { writeRequestLine } from './request-line.js';
import { openExchange } from '../../shared/http/pipeline/api-exchange.js';
import { matchRoute } from '../../shared/http/api-routes.js';
import { createPrometheusExporter, type PrometheusExporter } from '../../shared/adapters/local/prometheus-exporter.js';
import { serviceRuntime } from '../../shared/runtime/process-runtime.js';

/** The message a parent process with an IPC channel receives once the server accepts connections. */
export interface LocalServerListening {
  readonly type: 'listening';
  readonly url: string;
}

export interface LocalServerOptions {
  readonly port: number;
  readonly host: string;
  /**
   * Runs on SIGINT/SIGTERM once the server takes no more requests: stops the process's workers (no task starts after
   * the call) and resolves once their deliveries in flight returned, with a line naming the work left undone, if any.
   */
  readonly onShutdown?: () => Promise<string | undefined>;
  /** Where one plain line per answered request goes (npm start's default console; local-log-defaults.ts), if anywhere. */
  readonly requestLines?: NodeJS.WritableStream;
}

/** How long a stop may take (emulators included, on `start:aws-local`) before the process gives up and exits 1. */
export const SHUTDOWN_DEADLINE_MS = 10_000;

/**
 * Serves every route by turning each HTTP request into the API Gateway (HTTP API v2) event the deployed
 * API Lambda receives and invoking the same handler - one code path, locally and on AWS.
 */
export async function startLocalServer(options: LocalServerOptions): Promise<Server> {
  // Load models before listening, so the first request does not pay the cold start.
  const runtime = await serviceRuntime();
  const { config } = runtime;
  const checks = { auth: runtime.auth, maxBodyBytes: config.maxBodyBytes, maxPathChars: config.maxPathChars };
  const prometheus = createPrometheusExporter();
  const siteGuard = new LocalSiteGuard({ host: options.host, allowedHosts: config.localServer.allowedHosts, machineName: hostname() });
  const serve = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void => {
    observeExchange(prometheus, req, res, config.maxPathChars);
    if (options.requestLines) writeRequestLine(req, res, options.requestLines);
    void (async () => {
      // A target API Gateway would route nowhere is a 404 (shared/http/request-target.ts); without keys, only this
      // server's own host names and no other site's web page (shared/http/local-site-guard.ts).
      try {
        if (isUnroutableTarget(req.url ?? '/')) throw unroutableTargetError(req.method ?? 'GET', req.url ?? '/');
        if (runtime.auth.open) siteGuard.check(req.method ?? 'GET', (name) => req.headers[name] as string | undefined);
      } catch (error) {
        // As a refusal on the headers below: answered without keeping a byte of the body.
        const answer = failureResult(toApiGatewayEvent(req, Buffer.alloc(0)), error);
        if (expectsContinue) await writeApiGatewayResult(res, { ...answer, headers: { ...answer.headers, connection: 'close' } });
        else if (await drainBody(req, API_GATEWAY_MAX_BODY_BYTES)) await writeApiGatewayResult(res, answer);
        return;
      }
      if (req.method === 'GET' && pathOf(req) === METRICS_PATH) {
        await writeApiGatewayResult(res, await metricsResult(prometheus, runtime.auth, req));
        return;
      }
      // A request refused on its headers is refused without keeping a byte of its body, so unauthenticated clients
      // cannot make the server hold megabytes each.
      const decision = await beforeBody(req, checks);
      if ('refuse' in decision || !decision.readBody) {
        const answer =
          'refuse' in decision ? decision.refuse : await apiHandler(toApiGatewayEvent(req, Buffer.alloc(0)), localLambdaContext());
        if (expectsContinue) {
          // The client waits for "100 Continue" before it sends the body (curl does past 1 MB): answer now, no body
          // ever crosses the wire, and the connection closes as the client expects after a final answer.
          await writeApiGatewayResult(res, { ...answer, headers: { ...answer.headers, connection: 'close' } });
          return;
        }
        // A client already sending is answered once the rest of its body has gone by, read and dropped: answering
        // (or closing) while it still sends makes clients such as undici fail with EPIPE instead of reading the 4xx.
        // A body refused for its size is drained further, so a file posted to /v1/files by mistake hears why.
        const drainUpTo = answer.statusCode === 413 ? OVERSIZE_BODY_DRAIN_BYTES : API_GATEWAY_MAX_BODY_BYTES;
        if (await drainBody(req, drainUpTo)) await writeApiGatewayResult(res, answer);
        return;
      }
      if (expectsContinue) res.writeContinue();
      const body = await readBodyCapped(req);
      if (body === undefined) {
        // Past API Gateway's 10 MB cap (a body sent without Content-Length): the route's 413, once the rest of the
        // body has gone by, read and dropped, as above.
        const answer = oversizeBodyResult(req, API_GATEWAY_MAX_BODY_BYTES, config.maxBodyBytes, config.maxPathChars);
        if (await drainBody(req, OVERSIZE_BODY_DRAIN_BYTES))
          await writeApiGatewayResult(res, { ...answer, headers: { ...answer.headers, connection: 'close' } });
        else req.destroy();
        return;
      }
      await writeApiGatewayResult(res, await apiHandler(toApiGatewayEvent(req, body), localLambdaContext()));
    })().catch((error: unknown) => {
      console.error('local server: unhandled error', error);
      // The same envelope the API answers a failure in, for the dialect of the route that was called.
      if (!res.headersSent) void writeApiGatewayResult(res, failureResult(toApiGatewayEvent(req, Buffer.alloc(0)), error));
    });
  };
  const server = createServer((req, res) => serve(req, res, false));
  // Node answers "Expect: 100-continue" itself unless told otherwise; here the headers are checked first.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => serve(req, res, true));

  // Slow or idle clients cannot hold the server: headers within headersTimeoutMs, the whole request within
  // requestTimeoutMs, at most maxConnections sockets at once (Node's defaults are 60 s, 300 s and unlimited).
  server.headersTimeout = config.localServer.headersTimeoutMs;
  server.requestTimeout = config.localServer.requestTimeoutMs;
  server.maxConnections = config.localServer.maxConnections;
  // A busy port or a foreign HOST rejects here (EADDRINUSE, EADDRNOTAVAIL), for the caller to explain in one line.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${options.host}:${port}`;
  console.log(`rerank service listening on ${url} (models: ${runtime.scorers.ids().join(', ')})`);
  // A parent that started this process with an IPC channel (the e2e tests, with PORT=0) learns the address here.
  process.send?.({ type: 'listening', url } satisfies LocalServerListening);
  // Stated once, here: whether callers need a key is decided at start-up, never by later revocations.
  console.log(runtime.auth.accessDescription);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping (no new requests or tasks)`);
    setTimeout(() => {
      console.error(`stop: work still running after ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting with status 1`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    prometheus.close();
    stopServing(server, runtime.scorers, options.onShutdown).then(
      (abandoned) => {
        console.log(abandoned ?? 'stopped with no work in progress');
        process.exit(0);
      },
      (error: unknown) => {
        console.error('stop failed', error);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, shutdown);
  return server;
}

/**
 * Stops taking work, then lets what runs end cleanly: the server closes (open connections with it), the workers stop
 * starting tasks, and the scorers close - an ONNX run in flight finishes, a later one is refused - so a delivery in
 * flight ends at its next run instead of scoring its whole chunk. Exiting while a worker thread is inside a run
 * aborts the process natively, hence the wait.
 */
async function stopServing(
  server: Server,
  scorers: { closeAll(): Promise<void> },
  stopWorkers: LocalServerOptions['onShutdown'],
): Promise<string | undefined> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  const workersStopped = stopWorkers?.() ?? Promise.resolve(undefined);
  await scorers.closeAll();
  const [abandoned] = await Promise.all([workersStopped, closed]);
  return abandoned;
}

/** Prometheus scrapes this path; the local server's only route the API Lambda does not have (CloudWatch has its figures). */
const METRICS_PATH = '/metrics';

const pathOf = (req: IncomingMessage): string => (req.url ?? '/').split('?')[0]!;

/** Counts the exchange once the answer is sent, under the matched route's template so ids never become label values. */
function observeExchange(prometheus: PrometheusExporter, req: IncomingMessage, res: ServerResponse, maxPathChars: number): void {
  const started = performance.now();
  res.once('finish', () => {
    const method = req.method ?? 'GET';
    const path = pathOf(req);
    const match = path === METRICS_PATH ? undefined : matchRoute(method, path, maxPathChars);
    const route = path === METRICS_PATH ? METRICS_PATH : match?.found === 'route' ? match.route.path : 'unmatched';
    prometheus.observeRequest(method, route, res.statusCode, (performance.now() - started) / 1000);
  });
}

/** `GET /metrics`: a key when keys exist, like every private route; the refusal in the OpenAI envelope. */
async function metricsResult(
  prometheus: PrometheusExporter,
  auth: Awaited<ReturnType<typeof serviceRuntime>>['auth'],
  req: IncomingMessage,
) {
  const event = toApiGatewayEvent(req, Buffer.alloc(0));
  const read = (name: string) => event.headers[name];
  try {
    await auth.authenticate(authorizationOf(read));
  } catch (error) {
    const { dialect, match } = openExchange(event);
    return failureResult(event, describeRefusal(error, { dialect, match, header: read }));
  }
  const { contentType, body } = await prometheus.render();
  return { statusCode: 200, headers: { 'content-type': contentType }, body };
}
