import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/**
 * Server-sent events as OpenAI-compatible servers send them: one `data: <json>` line per event, a blank line
 * after each, and `data: [DONE]` last. API Gateway HTTP APIs buffer Lambda responses, so the whole stream
 * arrives at once when it is complete; clients that stream assemble the same content either way.
 */
export function eventStreamResult(
  status: number,
  events: readonly unknown[],
  headers: Record<string, string> = {},
): APIGatewayProxyStructuredResultV2 {
  const lines = events.map((event) => `data: ${JSON.stringify(event)}\n\n`);
  return {
    statusCode: status,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...headers },
    body: `${lines.join('')}data: [DONE]\n\n`,
  };
}
