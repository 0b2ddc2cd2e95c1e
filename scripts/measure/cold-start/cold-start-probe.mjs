/* global performance, process, console */
// One cold start in this fresh process, run by run-cold-start-bench.ts as `node cold-start-probe.mjs <bundle>`:
// import the API function's esbuild bundle, build its runtime (config, models, storage clients: what the handler's
// first invocation awaits), then invoke the exported handler once with an API Gateway v2 event of a 10-document
// request. Plain JavaScript, so nothing but the bundle is compiled or loaded. Prints one line: COLD_START_PROBE {json}
// with wall-clock marks (ms since the epoch, comparable with the parent's spawn time).
const wall = () => performance.timeOrigin + performance.now();
// CPU seconds of the whole process (every thread: ONNX Runtime's and the inference workers' too) at each mark: on a
// shared machine the wall-clock split waits for CPUs, the CPU split does not.
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const probeStart = wall();
const probeStartCpu = cpu();
const [bundle, model] = process.argv.slice(2);
const { pathToFileURL } = await import('node:url');
const mod = await import(pathToFileURL(bundle).href);
const imported = wall();
const importedCpu = cpu();
await mod.serviceRuntime();
const loaded = wall();
const loadedCpu = cpu();
const documents = Array.from({ length: 10 }, (_, i) => `Document ${i}: Paris is the capital and largest city of France.`);
const event = {
  version: '2.0',
  routeKey: '$default',
  rawPath: '/v1/rerank',
  rawQueryString: '',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.RERANK_API_KEYS}`, host: 'bench.local' },
  requestContext: {
    accountId: '000000000000',
    apiId: 'bench',
    domainName: 'bench.local',
    domainPrefix: 'bench',
    http: { method: 'POST', path: '/v1/rerank', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'cold-start-bench' },
    requestId: 'cold-start-bench',
    routeKey: '$default',
    stage: '$default',
    time: new Date().toISOString(),
    timeEpoch: Date.now(),
  },
  body: JSON.stringify({ model, query: 'what is the capital of france', documents }),
  isBase64Encoded: false,
};
const context = {
  callbackWaitsForEmptyEventLoop: true,
  functionName: 'cold-start-bench',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:cold-start-bench',
  memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ?? '3008',
  awsRequestId: 'cold-start-bench',
  logGroupName: '/aws/lambda/cold-start-bench',
  logStreamName: 'bench',
  getRemainingTimeInMillis: () => 29_000,
  done() {},
  fail() {},
  succeed() {},
};
const result = await mod.handler(event, context);
const answered = wall();
const answeredCpu = cpu();
const body = typeof result.body === 'string' ? JSON.parse(result.body) : undefined;
const scores = Array.isArray(body?.results) ? body.results.map((r) => [r.index, r.relevance_score]) : [];
console.log(
  `COLD_START_PROBE ${JSON.stringify({ probeStart, imported, loaded, answered, cpu: [probeStartCpu, importedCpu, loadedCpu, answeredCpu], status: result.statusCode, scores })}`,
);
// Lambda freezes the process after the answer; here it ends without waiting for the sessions' worker threads.
process.exit(0);
