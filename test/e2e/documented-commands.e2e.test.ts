import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledModelsSpec, resolveDeployHubModels } from '../../infra/config/rerank-models.js';
import { readRerankSettings } from '../../infra/config/rerank-settings.js';
import {
  cdkContextArgs,
  documentedBlocks,
  documentedCommands,
  DOCUMENTED_PAGES,
  isClientSnippet,
  npmScriptsNamed,
  withoutComment,
  type DocumentedBlock,
  type DocumentedCommand,
} from '../support/documented-commands.js';
import { cleanServerEnv, startDevServer, type RunningServer } from '../support/start-dev-server.js';
import { cdkJsonContext, removeScratchDirs, scratchDir } from '../infra/support/synth-rerank.js';
import { startFakeHub, type FakeHub, type FakeRepo } from '../unit/scoring/model-pull/fake-hub-server.js';
import { fixtureHubRepo } from '../unit/scoring/model-pull/fixture-hub-repo.js';
import type { EmulatorHandle } from '../../scripts/emulators/emulator-handle.js';
import { startDynamoDbLocal } from '../../scripts/emulators/start-dynamodb-local.js';
import { localAwsConfig } from '../../scripts/emulators/local-aws-config.js';
import { createJobsTable } from '../../scripts/emulators/create-jobs-table.js';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

// Every shell command the README and docs/ show, run here as a reader runs it where this machine can, and where it
// cannot (an AWS account), named with the reason. A command added to a page without a way to check it fails the
// first test until it is given one.
const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

type How =
  | 'readme-example' // README's curl examples: readme-examples.e2e.test.ts runs them and matches the shown output
  | 'cdk-context' // a cdk deploy/synth: its -c context is read and validated as synth reads it (hub ids pulled from a fake hub)
  | 'smoke-test' // the deploy guide's smoke test, run against npm start with API_URL and KEY set
  | 'keys-table' // npm run keys -- --table: run as written against DynamoDB Local (AWS_ENDPOINT_URL_DYNAMODB)
  | 'start-with-models' // RERANK_MODELS=... npm start: started as written, its hub model pulled from a fake hub
  | 'suite' // npm ci && npm start, npm test, npm run synth: what CI runs (.ci/run, every e2e's server, cdk-synth.test.ts)
  | 'variable' // an assignment the next commands read; the tests set it themselves
  | 'aws-account' // needs an AWS account: bootstrap, destroy, the aws CLI reading a deployed stack's outputs
  | 'batch-example'; // a block of a batch walkthrough (it names a .jsonl file): the page's blocks run in order, below

const RULES: readonly (readonly [RegExp, How])[] = [
  [/^curl -si? localhost:3000\//, 'readme-example'],
  [/^curl .*"\$\{API_URL\}/, 'smoke-test'],
  [/^npx cdk (deploy|synth)\b/, 'cdk-context'],
  [/^npm run keys -- --table /, 'keys-table'],
  [/^RERANK_MODELS=\S+ npm start$/, 'start-with-models'],
  [/^(npm ci && npm start|npm test|npm run synth)$/, 'suite'],
  [/^(export )?(RERANK_KEY|AUTH|H|KEY)=/, 'variable'],
  [/^(npx cdk (bootstrap|destroy)|aws |out\(\) \{|(API_URL|TABLE)=\$\(out )/, 'aws-account'],
];

const commands = documentedCommands();
const blockKey = (c: { page: string; block: number }): string => `${c.page}#${c.block}`;
/** The bash blocks of the batch walkthroughs: every command of a block that names a .jsonl file runs with its block. */
const BATCH_BLOCKS = new Set(commands.filter((c) => /\.jsonl\b/.test(withoutComment(c.text))).map(blockKey));
const howOf = (command: DocumentedCommand): How[] =>
  BATCH_BLOCKS.has(blockKey(command))
    ? ['batch-example']
    : RULES.filter(([pattern]) => pattern.test(withoutComment(command.text))).map(([, how]) => how);
const where = (c: DocumentedCommand): string => `${c.page}:${c.line}: ${c.text}`;
const ofKind = (how: How): DocumentedCommand[] => commands.filter((c) => howOf(c)[0] === how);

// Every describe below takes scratch folders (model caches): removed once, after the last of them.
afterAll(() => removeScratchDirs());

describe('the commands the README and docs/ show', () => {
  it('each have exactly one way of being checked here, or are named as needing an AWS account', () => {
    expect(commands.length).toBeGreaterThan(40);
    const unchecked = commands.filter((c) => howOf(c).length !== 1).map(where);
    expect(unchecked).toEqual([]);
  });

  it('name only npm scripts that exist, and docs/development.md lists every script', () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
    );
    const named = DOCUMENTED_PAGES.flatMap((page) =>
      npmScriptsNamed(readFileSync(join(ROOT, page), 'utf8')).map((name) => `${page}: npm run ${name}`),
    );
    expect(named.filter((entry) => !scripts.includes(entry.split('npm run ')[1]!))).toEqual([]);
    const development = readFileSync(join(ROOT, 'docs/development.md'), 'utf8');
    expect(
      scripts.filter(
        (name) => !development.includes(`\`${name}\``) && !development.includes(`npm run ${name}`) && !['start', 'test'].includes(name),
      ),
    ).toEqual([]);
  });
});

describe('cdk deploy as the docs write it: its context passes the checks synth runs', () => {
  let hub: FakeHub;
  const repos = new Set(ofKind('cdk-context').flatMap((c) => [...c.text.matchAll(/hf:([\w.-]+\/[\w.-]+)/g)].map((m) => m[1]!)));

  beforeAll(async () => {
    // Each repo the docs name, published with the fixture's files, fp32 (onnx/model.onnx) and quantized.
    const withFp32 = (): FakeRepo => {
      const repo = fixtureHubRepo();
      const files = new Map(repo.files);
      files.set('onnx/model.onnx', files.get('onnx/model_quantized.onnx')!);
      return { ...repo, files };
    };
    hub = await startFakeHub(Object.fromEntries([...repos].map((name) => [name, withFp32()])));
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('finds the deploy commands of the README and the deploy guide, some with hub models', () => {
    expect(ofKind('cdk-context').length).toBeGreaterThanOrEqual(8);
    expect(repos.size).toBeGreaterThanOrEqual(2);
  });

  for (const command of ofKind('cdk-context')) {
    it(`${command.page}:${command.line} ${withoutComment(command.text).replaceAll(/\s*\\\n\s*/g, ' ')}`, async () => {
      const context: Record<string, unknown> = { ...cdkJsonContext(), ...cdkContextArgs(command.text) };
      const env = { RERANK_MODEL_CACHE: scratchDir('docs-cdk-cache-'), HF_ENDPOINT: hub.endpoint, HOME: '/nonexistent' };
      const resolved = await resolveDeployHubModels((key) => context[key], { env, progress: { write: () => true } });
      const settings = readRerankSettings(resolved);
      // The models the command names are the ones deployed, in its order.
      const named = String(context['rerank:models'] ?? '')
        .split(',')
        .filter(Boolean)
        .map((entry) => entry.split('=')[0]);
      if (named.length > 0)
        expect(
          bundledModelsSpec(settings.deployModels)
            .split(',')
            .map((entry) => entry.split('=')[0]),
        ).toEqual(named);
    });
  }
});

describe('the deploy guide smoke test, against npm start', () => {
  const KEY = 'rk-documented-commands-0123456789';
  let server: RunningServer;
  beforeAll(async () => {
    server = await startDevServer({ RERANK_MODELS: '', RERANK_API_KEYS: KEY });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers each dialect, queues a job that its poll finds, and refuses the call without a key', async () => {
    const smoke = ofKind('smoke-test');
    const setup = commands.filter((c) => c.page === 'docs/deploy-aws.md' && /^H=/.test(c.text)).map((c) => c.text);
    expect(smoke.length).toBe(6);
    const env = { ...cleanServerEnv(), API_URL: `${server.url}/`, KEY };
    let jobId = '';
    const outputs: string[] = [];
    for (const command of smoke) {
      const script = [...setup, command.text.replace('<id>', jobId)].join('\n');
      const output = (await run('bash', ['-c', script], { env, maxBuffer: 1 << 20 })).stdout.trim();
      jobId = /location: \/v1\/rerank\/jobs\/([0-9a-f-]+)/i.exec(output)?.[1] ?? jobId;
      outputs.push(output);
    }
    const [openai, dashscope, chat, submitted, polled, refused] = outputs;
    expect(JSON.parse(openai!).results.map((r: { index: number }) => r.index)).toHaveLength(2);
    expect(JSON.parse(dashscope!).output.results).toHaveLength(2);
    expect(JSON.parse(JSON.parse(chat!).choices[0].message.content).results).toHaveLength(2);
    expect(submitted).toMatch(/^HTTP\/1\.1 202/);
    expect(jobId).not.toBe('');
    expect(JSON.parse(polled!)).toMatchObject({ id: jobId, object: 'rerank.job' });
    expect(refused).toBe('401');
  });
});

describe('npm run keys -- --table as the deploy guide writes it, against DynamoDB Local', () => {
  const env = (extra: Record<string, string>) => ({
    ...cleanServerEnv(),
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_REGION: 'us-east-1',
    ...extra,
  });
  const runAll = async (list: readonly DocumentedCommand[], vars: Record<string, string>): Promise<string[]> => {
    const outputs: string[] = [];
    let keyId = '';
    for (const command of list) {
      // The rotation's revoke names a key id from `list`: the first key's, as a reader would paste it.
      const text = command.text.replace('<keyId of the old key>', keyId);
      const result = await run('bash', ['-c', text], { cwd: ROOT, env: env(vars), maxBuffer: 1 << 20 });
      keyId ||= /id ([0-9a-f]{16})/.exec(result.stdout)?.[1] ?? '';
      outputs.push(result.stdout);
    }
    return outputs;
  };

  let dynamo: EmulatorHandle | undefined;
  const TABLE = 'docs-keys-table';
  beforeAll(async () => {
    dynamo = await startDynamoDbLocal();
    const client = new DynamoDBClient(localAwsConfig(dynamo.endpoint));
    await createJobsTable(client, TABLE);
    client.destroy();
  });
  afterAll(async () => {
    await dynamo?.stop();
  });

  it('creates, lists and rotates keys in the table the stack outputs', async () => {
    const list = ofKind('keys-table');
    expect(list.length).toBeGreaterThanOrEqual(5);
    const outputs = await runAll(list, { TABLE, AWS_ENDPOINT_URL_DYNAMODB: dynamo!.endpoint });
    const outputOf = (pattern: RegExp): string[] => list.flatMap((c, i) => (pattern.test(c.text) ? [outputs[i]!] : []));
    expect(outputOf(/ create /).length).toBeGreaterThanOrEqual(3);
    for (const output of outputOf(/ create /)) expect(output).toMatch(/rk-[0-9A-Za-z]{40}/);
    expect(outputOf(/ list\b/)[0]).toMatch(/partner.*\s120\s+2\s+100000000\s*$/m);
    expect(outputOf(/ revoke /)[0]).toMatch(/^Revoked key [0-9a-f]{16} /m);
  });
});

describe('RERANK_MODELS=... npm start as the README writes it', () => {
  let hub: FakeHub | undefined;
  afterAll(async () => {
    await hub?.close();
  });

  it('finds a hub model and an offline folder among them', () => {
    const specs = ofKind('start-with-models').map((c) => withoutComment(c.text));
    expect(specs.some((spec) => spec.includes('=hf:'))).toBe(true);
    expect(specs.some((spec) => /=models\//.test(spec))).toBe(true);
  });

  for (const command of ofKind('start-with-models')) {
    it(`${command.page}:${command.line} serves the models it names, in its order (a hub model pulled from a fake hub)`, async () => {
      const spec = /^RERANK_MODELS=(\S+) npm start$/.exec(withoutComment(command.text))![1]!;
      const repos = [...spec.matchAll(/hf:([\w.-]+\/[\w.-]+)/g)].map((m) => m[1]!);
      await hub?.close();
      hub = await startFakeHub(Object.fromEntries(repos.map((repo) => [repo, fixtureHubRepo()])));
      const server = await startDevServer({
        RERANK_MODELS: spec,
        HF_ENDPOINT: hub.endpoint,
        RERANK_MODEL_CACHE: scratchDir('docs-start-cache-'),
      });
      try {
        const models = (await (await fetch(`${server.url}/v1/models`)).json()) as { data: { id: string }[] };
        expect(models.data.map((m) => m.id)).toEqual(spec.split(',').map((entry) => entry.split('=')[0]));
        const ranked = (await (
          await fetch(`${server.url}/v1/rerank`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: 'q', documents: ['a', 'b'] }),
          })
        ).json()) as { results: unknown[] };
        expect(ranked.results).toHaveLength(2);
      } finally {
        await server.stop();
      }
    });
  }
});

describe('the batch walkthroughs of the README and docs/api.md, run as written against npm start', () => {
  // Each page's walkthrough blocks (bash naming a .jsonl file, and every python and ts block) run in page order in one
  // fresh folder, as a reader pastes them: the first makes the input files, each client after it runs a whole batch.
  const KEY = 'rk-documented-batches-0123456789';
  const IDS = ['c1', 'q1', 'q2', 'q3'];
  // A client snippet is one call, run by documented-clients.e2e.test.ts (docs/clients.md) or readme-examples (README).
  const runnable = (b: DocumentedBlock): boolean =>
    !isClientSnippet(b) && ((b.lang === 'bash' && BATCH_BLOCKS.has(blockKey(b))) || b.lang === 'python' || b.lang === 'ts');
  const pages = [
    ...new Set(
      documentedBlocks()
        .filter(runnable)
        .map((b) => b.page),
    ),
  ];
  let server: RunningServer;
  // Under the checkout (gitignored), so `npm run batch` finds the package and the TypeScript example finds `openai`.
  const work = join(ROOT, '.tmp');
  const dirs: string[] = [];
  beforeAll(async () => {
    server = await startDevServer({ RERANK_API_KEYS: KEY });
  });
  afterAll(async () => {
    await server?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('are found: a curl, an OpenAI Python SDK, an OpenAI Node SDK (with the endpoint cast) and an npm run batch walkthrough', () => {
    const blocks = documentedBlocks().filter(runnable);
    expect(blocks.some((b) => b.lang === 'bash' && /curl .*\/v1\/batches/.test(b.text))).toBe(true);
    expect(blocks.some((b) => b.lang === 'python' && /client\.batches\.create/.test(b.text))).toBe(true);
    expect(blocks.some((b) => b.lang === 'ts' && /endpoint: '\/v1\/rerank' as '\/v1\/chat\/completions'/.test(b.text))).toBe(true);
    expect(blocks.some((b) => b.lang === 'bash' && /npm run batch -- submit/.test(b.text))).toBe(true);
    // Each covers a many-query batch and a corpus line by documents_file_id.
    for (const block of blocks.filter((b) => /batches|batch -- submit/.test(b.text)))
      expect(block.text, `${block.page}:${block.line}`).toMatch(/documents_file_id/);
  });

  for (const page of pages) {
    it(`${page}: every client's batch ends with a result for each custom_id, the corpus line's top 2 among them`, async () => {
      mkdirSync(work, { recursive: true });
      const dir = mkdtempSync(join(work, 'docs-batches-'));
      dirs.push(dir);
      const env = { ...cleanServerEnv(), RERANK_KEY: KEY, RERANK_URL: server.url, RERANK_BASE_URL: server.url };
      for (const block of documentedBlocks().filter((b) => b.page === page && runnable(b))) {
        const where = `${page}:${block.line} (${block.lang})`;
        for (const old of resultFilesUnder(dir)) rmSync(old, { force: true });
        let stdout: string;
        if (block.lang === 'bash') {
          // The port is the test server's; everything else as written.
          const script = `set -euo pipefail\n${block.text.replaceAll('http://localhost:3000', server.url)}`;
          stdout = (await run('bash', ['-c', script], { cwd: dir, env, maxBuffer: 1 << 22 })).stdout;
        } else if (block.lang === 'python') {
          // The OpenAI Python SDK from pip's configured index (.ci/run installs it): missing, this fails, it does not skip.
          writeFileSync(join(dir, 'batch.py'), block.text);
          stdout = (await run('python3', ['batch.py'], { cwd: dir, env, maxBuffer: 1 << 22 })).stdout;
        } else {
          // Type-checked as a reader's strict TypeScript project would (the cast is what lets '/v1/rerank' through), then run.
          writeFileSync(join(dir, 'batch.mts'), block.text);
          const strict = [
            '--noEmit',
            '--strict',
            '--module',
            'nodenext',
            '--moduleResolution',
            'nodenext',
            '--target',
            'es2022',
            '--skipLibCheck',
            '--types',
            'node',
          ];
          await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), ...strict, 'batch.mts'], { cwd: dir, env });
          stdout = (await run(process.execPath, ['--import', 'tsx', 'batch.mts'], { cwd: dir, env, maxBuffer: 1 << 22 })).stdout;
        }
        if (!/\$RERANK_URL|npm run|client\.batches/.test(block.text)) continue; // the block that makes the input files
        // A walkthrough may cd into a folder of its own (the README's keeps the checkout root clean).
        const [results] = resultFilesUnder(dir);
        if (page === 'README.md') {
          // Pasted in the checkout root, the README's files land where git ignores them, none in the root itself.
          expect(results, where).toBeDefined();
          expect(
            readdirSync(dir).filter((name) => name.endsWith('.jsonl')),
            where,
          ).toEqual([]);
          await run('git', ['check-ignore', '--no-index', '--quiet', relative(dir, results!)], { cwd: ROOT });
        }
        if (results !== undefined) {
          const lines = readFileSync(results, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as { custom_id: string; response: { status_code: number; body: { results: unknown[] } } });
          expect(lines.map((l) => l.custom_id).sort(), where).toEqual(IDS);
          for (const line of lines) expect(line.response.status_code, where).toBe(200);
          expect(lines.find((l) => l.custom_id === 'c1')?.response.body.results, where).toHaveLength(2);
        } else {
          // The SDK examples print each line's best result: "<custom_id> <result>".
          const printed = stdout
            .trim()
            .split('\n')
            .map((l) => l.split(' ')[0]);
          expect(printed.sort(), `${where}: ${stdout}`).toEqual(IDS);
          expect(stdout, where).toMatch(/index/);
        }
      }
    }, 240_000);
  }
});

/** Every results.jsonl a documented walkthrough wrote under its scratch folder, at any depth. */
function resultFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name === 'results.jsonl' || name.endsWith('/results.jsonl'))
    .map((name) => join(dir, name));
}
