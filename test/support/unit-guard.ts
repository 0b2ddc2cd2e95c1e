import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import workerThreads from 'node:worker_threads';

/**
 * The unit project's setup: unit tests start no process, server or worker thread (`npm run test:unit` is the seconds-long loop;
 * processes, servers and emulators belong to the slow project). Rather than a list kept by hand, the ways to start one
 * throw here, naming where the test belongs - so a unit test that starts one fails the day it is written.
 */
const MOVE =
  'unit tests start no processes, servers or worker threads: name the file *.slow.test.ts (the slow project runs it) or fake the port';

// A function, not an arrow: `new Worker(...)` must reach the throw, not fail as "not a constructor".
const forbid = (what: string) =>
  function forbidden(): never {
    throw new Error(`${what}: ${MOVE}`);
  };

const cp = childProcess as unknown as Record<string, unknown>;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'])
  cp[name] = forbid(`child_process.${name}`);
net.Server.prototype.listen = forbid('net.Server.listen') as typeof net.Server.prototype.listen;
// A worker thread loads its own copy of onnxruntime: seconds each, and what differs by Node version (the Node-24 run).
(workerThreads as unknown as Record<string, unknown>)['Worker'] = forbid('new worker_threads.Worker');
// ESM named imports of node:child_process read the builtin's export object only once synced.
syncBuiltinESMExports();
