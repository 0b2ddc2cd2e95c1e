import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { failureResult, type ApiApp } from '../../shared/http/api-app.js';
import { createApiApp } from '../../shared/http/create-api-app.js';
import { lambdaResult } from '../../shared/http/lambda-result.js';
import { logger } from '../../shared/observability/logger.js';
import { metrics } from '../../shared/observability/metrics.js';
import { publishRecordedMetrics } from '../../shared/observability/publish-recorded-metrics.js';
import { tracingMiddleware } from '../../shared/observability/tracer.js';
import { serviceRuntime } from '../../shared/runtime/process-runtime.js';

// Built once per container: config, models and ONNX sessions are reused by every warm invocation.
let app: ApiApp | undefined;

async function handleApiRequest(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  try {
    app ??= createApiApp(await serviceRuntime());
  } catch (error) {
    // Only start-up failures reach here (ApiApp answers every request error itself); never leak their text.
    logger.error('api start-up failed', { error: error as Error });
    return failureResult(event, error);
  }
  const result = await app.handle(event);
  // Locally the Node adapter streams a file's bytes; inside Lambda they must become one payload.
  return process.env['AWS_LAMBDA_RUNTIME_API'] === undefined ? result : lambdaResult(result);
}

export const handler = middy(handleApiRequest).use(tracingMiddleware).use(injectLambdaContext(logger)).use(publishRecordedMetrics(metrics));
