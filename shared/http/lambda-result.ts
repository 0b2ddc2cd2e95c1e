import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { LAMBDA_MAX_RESPONSE_BYTES } from './response-size.js';
import { streamedBodyOf } from './streamed-result.js';

/**
 * What the API Lambda returns for a result: a streamed body (a file's content from a FileStore without download
 * URLs) is read into the base64 body Lambda needs, up to Lambda's 6 MB; past it the answer is a 413 saying so.
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
            message: 'the file is too large to return in one answer here',
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
