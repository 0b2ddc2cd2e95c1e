import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { LAMBDA_MAX_RESPONSE_BYTES } from './response-size.js';
import { streamedBodyOf } from './streamed-result.js';

/** Bytes of a file one answer here carries for sure: 4 MiB is 5.3 MiB in base64, inside Lambda's 6 MB with its headers. */
export const LAMBDA_PART_BYTES = 4 * 1024 * 1024;

/**
 * The 413's way out: the same file in parts of LAMBDA_PART_BYTES, by `Range` (the content route answers 206), with the
 * commands that ask for them. `bytes` is the whole answer's size when known.
 */
function fileTooLargeMessage(bytes: number | undefined): string {
  const size = bytes === undefined ? 'the file is' : `the answer is ${bytes} bytes,`;
  return (
    `${size} too large to return in one answer here (Lambda returns at most 6 MB). Download it in parts of at most ` +
    `${LAMBDA_PART_BYTES} bytes with a Range header, each answered 206 with its Content-Range: Range: bytes=0-${LAMBDA_PART_BYTES - 1}, ` +
    `then bytes=${LAMBDA_PART_BYTES}-${2 * LAMBDA_PART_BYTES - 1}, and so on (curl -r 0-${LAMBDA_PART_BYTES - 1}; ` +
    `OpenAI's SDKs: files.content(id, extra_headers={"Range": ...}) in Python, { headers: { Range: ... } } in Node)`
  );
}

/**
 * What the API Lambda returns for a result: a streamed body (a file's content from a FileStore without download
 * URLs) is read into the base64 body Lambda needs, up to Lambda's 6 MB; past it a 413 naming the parts to ask for.
 * On AWS files are on S3 and content is a redirect, so this is the fallback, never the download path.
 */
export async function lambdaResult(result: APIGatewayProxyStructuredResultV2): Promise<APIGatewayProxyStructuredResultV2> {
  const streamed = streamedBodyOf(result);
  if (streamed === undefined) return result;
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of streamed) {
    bytes += chunk.length;
    // base64 grows the body by 4/3; stop reading as soon as it cannot fit.
    if (Math.ceil(bytes / 3) * 4 > LAMBDA_MAX_RESPONSE_BYTES - 4096) {
      return {
        statusCode: 413,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          error: {
            message: fileTooLargeMessage(declaredBytes(result)),
            type: 'invalid_request_error',
            param: null,
            code: 'payload_too_large',
          },
        }),
      };
    }
    chunks.push(chunk);
  }
  const headers = { ...result.headers, 'content-length': String(bytes) };
  return { statusCode: result.statusCode ?? 200, headers, body: Buffer.concat(chunks).toString('base64'), isBase64Encoded: true };
}

function declaredBytes(result: APIGatewayProxyStructuredResultV2): number | undefined {
  const length = Number(result.headers?.['content-length']);
  return Number.isSafeInteger(length) ? length : undefined;
}
