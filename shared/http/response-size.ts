import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/**
 * Lambda's cap on a synchronous invocation's response: the serialized result object (status, headers and the
 * body as a JSON string, so every `"` and newline of the body counts twice). A larger answer never reaches the
 * client on AWS (API Gateway answers 5xx), so the API applies the same cap everywhere, `npm start` included.
 */
export const LAMBDA_MAX_RESPONSE_BYTES = 6 * 1024 * 1024;

/** Bytes of the payload Lambda would return for this result. */
export const lambdaResultBytes = (result: APIGatewayProxyStructuredResultV2): number => Buffer.byteLength(JSON.stringify(result), 'utf8');
