import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChunkQueues } from '../../../scripts/emulators/create-chunk-queues.js';
import type { EmulatorHandle } from '../../../scripts/emulators/emulator-handle.js';
import { localAwsConfig } from '../../../scripts/emulators/local-aws-config.js';
import { startSqsPoller } from '../../../scripts/emulators/sqs-poller.js';
import { startMotoServer } from '../../../scripts/emulators/start-moto-server.js';

/**
 * The test poller stands in for Lambda's event source mapping, whose queue's visibility timeout is 6x the worker's
 * timeout: a message is never delivered again while a delivery of it still runs. The chaos harnesses run short
 * visibility timeouts; on a loaded machine a handler outlived one, the message came back to a second consumer, and a
 * plan task that had only crashed on its faulty deliveries reached maxReceiveCount and was dead-lettered.
 */
let moto: EmulatorHandle;
let client: SQSClient;

beforeAll(async () => {
  moto = await startMotoServer();
  client = new SQSClient(localAwsConfig(moto.endpoint));
});

afterAll(async () => {
  client?.destroy();
  await moto?.stop();
});

describe('sqs poller: holdSeconds', () => {
  it('keeps a message invisible while its handler outlives the visibility timeout: one delivery, and none dead-lettered', async () => {
    const queues = await createChunkQueues(client, `hold-${Date.now().toString(36)}`, { maxReceiveCount: 2, visibilityTimeoutSeconds: 1 });
    await client.send(new SendMessageCommand({ QueueUrl: queues.queueUrl, MessageBody: '{"slow":true}' }));
    const deliveries: number[] = [];
    const deadLetters: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Two consumers, as in the chaos runs: with no hold the second receives the message once its timeout lapses.
    const handler = async (event: SQSEvent) => {
      for (const r of event.Records) deliveries.push(Number(r.attributes.ApproximateReceiveCount));
      await gate;
    };
    const options = { client, queueUrl: queues.queueUrl, batchSize: 1, waitTimeSeconds: 1, retryDelaySeconds: 0, holdSeconds: 2 };
    const pollers = [startSqsPoller({ ...options, handler }), startSqsPoller({ ...options, handler })];
    const dead = startSqsPoller({
      ...options,
      queueUrl: queues.dlqUrl,
      handler: async (event) => void deadLetters.push(...event.Records.map((r) => r.body)),
    });
    // The handler holds the message for four visibility timeouts (released by the count of polls, not a clock check).
    while (deliveries.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    for (let i = 0; i < 4 && deliveries.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 1_000));
    release();
    await Promise.all([...pollers, dead].map((p) => p.stop()));
    expect(deliveries).toEqual([1]);
    expect(deadLetters).toEqual([]);
  });
});
