/**
 * `npm start`: serves every route locally by turning each HTTP request into the API Gateway event the
 * deployed API Lambda receives and invoking the same handler. With the in-process jobs backend (the
 * default) the same worker handlers Lambda runs consume the in-process chunk queue. No AWS account needed.
 */
import { createServer } from 'node:http';
import { handler as apiHandler } from '../functions/api/handler.js';
import { handler as deadLetterHandler } from '../functions/workers/chunk-dead-letter.js';
import { handler as scoreChunkHandler } from '../functions/workers/score-chunk.js';
import { InProcessChunkQueue } from '../shared/adapters/in-process/in-process-chunk-queue.js';
import {
  localLambdaContext,
  readBodyCapped,
  toApiGatewayEvent,
  writeApiGatewayResult,
} from '../shared/http/node-http-adapter.js';
import { serviceRuntime } from '../shared/runtime/service-runtime.js';

const port = Number(process.env['PORT'] ?? 3000);
const host = process.env['HOST'] ?? '127.0.0.1';

// Load models before listening, so the first request does not pay the cold start.
const runtime = await serviceRuntime();
if (runtime.queue instanceof InProcessChunkQueue) {
  runtime.queue.attach(
    async (event) => scoreChunkHandler(event, localLambdaContext('rerank-score-chunk-local')),
    async (event) => deadLetterHandler(event, localLambdaContext('rerank-chunk-dead-letter-local')),
  );
}

const server = createServer((req, res) => {
  void (async () => {
    const body = await readBodyCapped(req);
    if (body === undefined) {
      // What API Gateway itself answers past its 10 MB cap, before any Lambda runs.
      writeApiGatewayResult(res, {
        statusCode: 413,
        headers: { 'content-type': 'application/json', connection: 'close' },
        body: '{"message":"Request Entity Too Large"}',
      });
      req.destroy();
      return;
    }
    const result = await apiHandler(toApiGatewayEvent(req, body), localLambdaContext());
    writeApiGatewayResult(res, result);
  })().catch((error: unknown) => {
    console.error('dev server: unhandled error', error);
    if (!res.headersSent) {
      writeApiGatewayResult(res, { statusCode: 500, headers: { 'content-type': 'application/json' }, body: '{"message":"Internal Server Error"}' });
    }
  });
});

server.listen(port, host, () => {
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  // The e2e tests read this line to find the port when PORT=0.
  console.log(`rerank service listening on http://${host}:${actualPort} (models: ${runtime.scorers.ids().join(', ')})`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
