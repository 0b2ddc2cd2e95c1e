import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from './start-dynamodb-local.js';
import { startMotoServer } from './start-moto-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Endpoints of the emulators this global setup started; read with `inject('awsEmulators')`. */
    awsEmulators: { dynamodbEndpoint: string; sqsEndpoint: string };
  }
}

/**
 * Optional vitest globalSetup: one DynamoDB Local + one moto for the whole run (instead of one per test file).
 * Throws (failing the run) if java or moto is missing. Teardown stops both by their PIDs.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [d, m] = await Promise.allSettled([startDynamoDbLocal(), startMotoServer()]);
  const started = [d, m].flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const teardown = async () => void (await Promise.all(started.map((s) => s.stop())));
  if (d.status === 'rejected' || m.status === 'rejected') {
    await teardown();
    throw d.status === 'rejected' ? d.reason : (m as PromiseRejectedResult).reason;
  }
  project.provide('awsEmulators', { dynamodbEndpoint: d.value.endpoint, sqsEndpoint: m.value.endpoint });
  return teardown;
}
