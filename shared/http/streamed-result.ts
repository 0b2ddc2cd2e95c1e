import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/**
 * A result whose body is a stream (a file's content on `npm start`): the local server writes it as it is read. The
 * symbol keeps it out of JSON.stringify, so the Lambda payload size check and logs never see it.
 */
export const STREAMED_BODY: unique symbol = Symbol('streamedBody');

export type StreamedResult = APIGatewayProxyStructuredResultV2 & { readonly [STREAMED_BODY]?: AsyncIterable<Uint8Array> };

export const streamedBodyOf = (result: APIGatewayProxyStructuredResultV2): AsyncIterable<Uint8Array> | undefined =>
  (result as StreamedResult)[STREAMED_BODY];
