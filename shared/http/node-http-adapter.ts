import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { streamedBodyOf } from './streamed-result.js';

/** API Gateway's own payload cap; beyond it API Gateway answers 413 before any Lambda runs. */
export const API_GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * How much of a body refused 413 the local server reads and drops before it answers. curl (without `Expect`), httpx
 * (the OpenAI Python SDK) and undici (the Node SDK) read an answer only once they have sent the whole body, so cutting
 * the connection earlier leaves them with a reset and no message. This covers the largest file a client might post to
 * `/v1/files` by mistake (a 200 MB batch input with its form); past it the connection is cut.
 */
export const OVERSIZE_BODY_DRAIN_BYTES = 256 * 1024 * 1024;

const TEXT_TYPES = /json|text|xml|urlencoded|javascript/i;

/** Builds the HTTP API (payload v2.0) event API Gateway would send for this request. */
export function toApiGatewayEvent(req: IncomingMessage, body: Buffer): APIGatewayProxyEventV2 {
  // The raw target, as API Gateway routes it: never resolved (`/a/../b`, `//host/b` stay as sent; see request-target.ts).
  const target = req.url ?? '/';
  const queryAt = target.indexOf('?');
  const rawPath = queryAt < 0 ? target : target.slice(0, queryAt);
  const rawQueryString = queryAt < 0 ? '' : target.slice(queryAt + 1);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const contentType = headers['content-type'] ?? 'application/json';
  // A text body that is not UTF-8 crosses as its bytes (base64), so the API refuses it naming the offset instead of
  // reading U+FFFD where the invalid bytes were.
  const isText = body.length === 0 || (TEXT_TYPES.test(contentType) && isUtf8(body));
  const now = Date.now();
  const method = (req.method ?? 'GET').toUpperCase();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    headers,
    ...(rawQueryString ? { queryStringParameters: Object.fromEntries(new URLSearchParams(rawQueryString)) } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers['host'] ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path: rawPath,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    body: isText ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: !isText,
  };
}

/** A Lambda context good enough for handlers and Powertools (no deadline locally). */
export function localLambdaContext(functionName = 'rerank-api-local'): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '2048',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/**
 * Writes a handler's structured result back to the socket as API Gateway would. A streamed body (a file's content)
 * is written as it is read, one chunk in flight, so a download of any size holds one chunk in memory.
 */
export async function writeApiGatewayResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): Promise<void> {
  const streamed = streamedBodyOf(result);
  const body =
    streamed !== undefined || result.body === undefined
      ? Buffer.alloc(0)
      : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  // nosniff on every local answer, those built outside the API (/metrics, refusals before the body) included.
  const headers: Record<string, string | number> = {
    'x-content-type-options': 'nosniff',
    ...(streamed === undefined ? { 'content-length': body.length } : {}),
  };
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = typeof value === 'boolean' ? String(value) : value;
  res.writeHead(result.statusCode ?? 200, headers);
  if (streamed === undefined) {
    res.end(body);
    return;
  }
  try {
    for await (const chunk of streamed) {
      if (res.destroyed) return;
      if (!res.write(chunk)) await once(res, 'drain');
    }
    res.end();
  } catch (error) {
    // The status line is gone already: cutting the connection is the only way left to say the body is incomplete.
    res.destroy(error as Error);
  }
}

/**
 * Reads the body up to API Gateway's cap; `undefined` means it was larger. The request is then left paused, not
 * destroyed, so the caller can still drain the rest and answer (see drainBody).
 */
export function readBodyCapped(req: IncomingMessage, maxBytes = API_GATEWAY_MAX_BODY_BYTES): Promise<Buffer | undefined> {
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', reject);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      req.pause();
      chunks.length = 0;
      resolve(undefined);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    // A client that goes away mid-body: no request to answer.
    const onClose = (): void => {
      if (req.readableEnded) return;
      stop();
      reject(new Error('the client closed the connection before its body ended'));
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
    req.once('close', onClose);
  });
}

/**
 * Reads the rest of a refused request's body without keeping it and resolves once it has all arrived, so the answer
 * is written to a client that is listening: answering (or closing) while a client such as undici still sends makes
 * it fail with EPIPE/ECONNRESET instead of reading the 4xx, depending on timing. Past `maxBytes` the connection is
 * cut and this resolves `false` - what API Gateway does past its own cap.
 */
export function drainBody(req: IncomingMessage, maxBytes: number): Promise<boolean> {
  if (req.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    let seen = 0;
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) {
        req.destroy();
        resolve(false);
      }
    });
    req.once('end', () => resolve(true));
    req.once('error', () => resolve(false));
    req.once('close', () => resolve(req.readableEnded));
    req.resume();
  });
}
