import type { MiddlewareObj } from '@middy/core';
import type { ApiExchange, ApiResult } from './api-exchange.js';

/** A middy middleware over the API's exchanges: one concern each (api-middlewares.ts). */
export type ApiMiddleware = MiddlewareObj<ApiExchange, ApiResult>;
