import { ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { EmulatorHandle, StartEmulatorOptions } from './emulator-handle.js';
import { freePort } from './free-port.js';
import { localAwsConfig } from './local-aws-config.js';
import { requireTool } from './require-tool.js';
import { spawnServer } from './spawn-server.js';

/** moto's server (the SQS emulator here), bound to loopback on a free port; ready once ListQueues answers. */
export async function startMotoServer(options: StartEmulatorOptions = {}): Promise<EmulatorHandle> {
  requireTool('python3', ['-c', 'import moto.server'], 'moto server', 'Install it with: python3 -m pip install "moto[server]"');
  const port = options.port ?? (await freePort());
  const endpoint = `http://127.0.0.1:${port}`;
  const probeClient = new SQSClient({ ...localAwsConfig(endpoint), maxAttempts: 1 });
  try {
    return await spawnServer(
      {
        name: 'moto server',
        command: 'python3',
        args: ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)],
        endpoint,
        probe: async () => (await probeClient.send(new ListQueuesCommand({})), true),
      },
      options,
    );
  } finally {
    probeClient.destroy();
  }
}
