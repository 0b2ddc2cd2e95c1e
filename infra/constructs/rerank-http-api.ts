import { RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type { HttpLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_ROUTES, gatewayPath, type Route } from '../../shared/http/api-routes.js';

export interface RerankHttpApiProps {
  readonly apiName: string;
  /** The one API function; it routes internally (shared/http/api-routes.ts). */
  readonly handler: lambda.IFunction;
  /** The route table (buildApiRoutes with the stack's prefixes); default: this process's API_ROUTES. */
  readonly routes?: readonly Route[];
  readonly throttleRateLimit: number;
  readonly throttleBurstLimit: number;
  readonly logRetentionDays: number;
  /** Checks the key of every non-public route before the handler runs; undefined = the handler alone checks. */
  readonly authorizer?: HttpLambdaAuthorizer;
  /** Replaces `authorizer` on routes shared with a dialect told apart by its headers (its key may be in `Api-Key`). */
  readonly keyHeaderAuthorizer?: HttpLambdaAuthorizer;
}

/**
 * HTTP API (payload v2) in front of the API function: one route per entry of API_ROUTES (the same table the
 * handler matches, so they cannot drift) and nothing else. There is no `$default` route: API Gateway itself
 * answers unknown paths and wrong methods (404 `{"message":"Not Found"}`) without invoking the 3 GB function.
 * Non-public routes carry the edge authorizer when one is given. Served on the `$default` stage, so client base URLs carry
 * no stage segment; stages are separate stacks (`Rerank-<stage>`).
 */
export class RerankHttpApi extends Construct {
  readonly httpApi: apigwv2.HttpApi;
  readonly stage: apigwv2.HttpStage;
  readonly accessLogs: logs.LogGroup;
  /** Routes served without a key (API_ROUTES' `public`): no authorizer. */
  readonly publicRoutes: apigwv2.HttpRoute[] = [];

  constructor(scope: Construct, id: string, props: RerankHttpApiProps) {
    super(scope, id);
    const integration = new HttpLambdaIntegration('ApiFunction', props.handler, {
      payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_2_0,
    });
    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      apiName: props.apiName,
      description: 'Rerank service: OpenAI/Jina/Cohere, DashScope and chat dialects, and async jobs',
      createDefaultStage: false,
    });
    const routed = new Set<string>();
    for (const route of props.routes ?? API_ROUTES) {
      const keyOutsideAuthorization = route.action.kind === 'rerank' && (route.action.byHeaders ?? []).length > 0;
      const authorizer =
        route.public === true ? undefined : keyOutsideAuthorization ? (props.keyHeaderAuthorizer ?? props.authorizer) : props.authorizer;
      // A template API Gateway cannot express (`{rankingConfig}:rank`) is routed greedily; the handler matches the rest.
      const path = gatewayPath(route.path);
      if (routed.has(`${route.method} ${path}`)) continue;
      routed.add(`${route.method} ${path}`);
      const added = this.httpApi.addRoutes({
        path,
        methods: [apigwv2.HttpMethod[route.method]],
        integration,
        ...(authorizer ? { authorizer } : {}),
      });
      if (route.public === true) this.publicRoutes.push(...added);
    }
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.throttleRateLimit, burstLimit: props.throttleBurstLimit },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.accessLogs),
        // Request metadata only: never bodies, queries or the Authorization header.
        format: accessLogFormat(),
      },
    });
  }

  get url(): string {
    return this.stage.url;
  }
}

function accessLogFormat(): AccessLogFormat {
  return AccessLogFormat.custom(
    JSON.stringify({
      requestId: '$context.requestId',
      ip: '$context.identity.sourceIp',
      requestTime: '$context.requestTime',
      method: '$context.httpMethod',
      path: '$context.path',
      routeKey: '$context.routeKey',
      status: '$context.status',
      responseLength: '$context.responseLength',
      latencyMs: '$context.responseLatency',
      integrationLatencyMs: '$context.integrationLatency',
      integrationError: '$context.integrationErrorMessage',
      authorizerError: '$context.authorizer.error',
      keyId: '$context.authorizer.keyId',
    }),
  );
}
