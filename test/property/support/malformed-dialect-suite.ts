import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { FIXTURE_MODEL_ID } from '../../../shared/config/service-config.js';
import { apiGatewayEvent } from '../../support/event-factory.js';
import { MALFORMED_RUNS } from './case-budget.js';
import { loadInProcessApi, type InProcessApi } from './in-process-api.js';
import { toJsonText } from './json-text.js';
import { propertyParams, propertyTimeoutMs } from './property-params.js';
import {
  bodyMutation,
  chatBody,
  chatContentText,
  chatMessagesMutation,
  mutatedFields,
  pathVariant,
  rawBodyEvent,
  requestHeaders,
  wireBody,
  wrongValue,
} from './rerank-arbitraries.js';
import type { WireDialect } from './response-oracle.js';
import { RERANK_ROUTES, expectApiResponse } from './route-oracle.js';

/** Mostly the route's own method; sometimes another, or a lower-case spelling. */
const method = fc.oneof(
  { weight: 12, arbitrary: fc.constant('POST') },
  { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'post', 'P0ST') },
);

/**
 * Malformed and extreme requests on every route of one dialect, against the real app: never a 5xx,
 * always the dialect's error envelope, and a correct ranking whenever a mutation left the request valid.
 */
export function describeMalformedDialect(dialect: WireDialect): void {
  const paths = Object.keys(RERANK_ROUTES).filter((p) => RERANK_ROUTES[p] === dialect);
  const route = fc.constantFrom(...paths).chain(pathVariant);
  const runs = MALFORMED_RUNS[dialect];
  let api: InProcessApi;

  const send = async (init: Parameters<typeof apiGatewayEvent>[0]): Promise<void> => {
    const event = apiGatewayEvent(init);
    expectApiResponse(event, await api.app.handle(event));
  };

  describe(`${dialect}: malformed and extreme requests on ${paths.join(', ')}`, () => {
    beforeAll(async () => {
      api = await loadInProcessApi();
    });

    it(
      `arbitrary JSON bodies (${runs.arbitraryJson} runs)`,
      async () => {
        await fc.assert(
          fc.asyncProperty(
            route,
            method,
            fc.oneof(fc.json(), fc.jsonValue().map(toJsonText)),
            requestHeaders(),
            async (path, m, body, headers) => send({ method: m, path, body, headers }),
          ),
          propertyParams(runs.arbitraryJson),
        );
      },
      propertyTimeoutMs(),
    );

    it(
      `near-valid bodies with mutated fields (${runs.nearValid} runs)`,
      async () => {
        const chatMessages = dialect === 'chat' ? chatMessagesMutation : fc.constant(undefined);
        await fc.assert(
          fc.asyncProperty(
            route,
            method,
            mutatedFields,
            bodyMutation(dialect),
            chatMessages,
            requestHeaders(),
            async (path, m, fields, mutate, messages, headers) => {
              const body = wireBody(dialect, fields);
              if (messages) body['messages'] = messages((body['messages'] as [{ content: unknown }])[0].content);
              await send({ method: m, path, body: toJsonText(mutate(body)), headers });
            },
          ),
          propertyParams(runs.nearValid),
        );
      },
      propertyTimeoutMs(),
    );

    it(
      `bodies that are not JSON text: random bytes, broken UTF-8, truncations (${runs.rawBody} runs)`,
      async () => {
        await fc.assert(
          fc.asyncProperty(route, rawBodyEvent, requestHeaders(), async (path, raw, headers) => send({ path, ...raw, headers })),
          propertyParams(runs.rawBody),
        );
      },
      propertyTimeoutMs(),
    );

    if (dialect === 'chat') {
      const contentRuns = MALFORMED_RUNS.chat.contentText;
      it(
        `chat content strings: arbitrary JSON, near-valid rerank JSON, free text (${contentRuns} runs)`,
        async () => {
          const content = fc.oneof(
            { weight: 6, arbitrary: chatContentText as fc.Arbitrary<unknown> },
            { weight: 1, arbitrary: wrongValue },
          );
          const model = fc.oneof(fc.constant(undefined), fc.constant(FIXTURE_MODEL_ID), wrongValue);
          const stream = fc.oneof(fc.constant(undefined), fc.boolean(), wrongValue);
          await fc.assert(
            fc.asyncProperty(route, model, stream, content, chatMessagesMutation, async (path, mdl, strm, text, messages) => {
              const body = { ...chatBody(mdl, text), messages: messages(text), ...(strm === undefined ? {} : { stream: strm }) };
              await send({ path, body: toJsonText(body) });
            }),
            propertyParams(contentRuns),
          );
        },
        propertyTimeoutMs(),
      );
    }
  });
}
