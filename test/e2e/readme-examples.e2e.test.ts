import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksOf, isClientSnippet } from '../support/documented-commands.js';
import { runClientSnippet } from '../support/run-client-snippet.js';
import { startDevServer, type RunningServer } from '../support/start-dev-server.js';

// The README's request examples, run as a reader runs them (bash + curl against `npm start`'s default models), and
// each output it shows compared with what the server answers: ids shortened with "…" (and elided parts) match anything, timestamps any
// time, long decimals their first five places.
const ROOT = join(import.meta.dirname, '../..');
const KEY = 'rk-readme-examples-0123456789';
const run = promisify(execFile);
let server: RunningServer;

interface Example {
  readonly command: string;
  readonly shown: string | undefined;
}

/** The curl commands of a markdown text's bash blocks, each with the output shown in the comment lines after it. */
export function curlExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  for (const block of markdown.matchAll(/```bash\n([\s\S]*?)```/g)) {
    const lines = block[1]!.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]!.startsWith('curl ')) continue;
      let command = lines[i]!;
      // A command goes on after a trailing backslash or while a single-quoted argument is open.
      while ((command.endsWith('\\') || (command.match(/'/g)?.length ?? 0) % 2 === 1) && i + 1 < lines.length) command += `\n${lines[++i]}`;
      const shown: string[] = [];
      while (i + 1 < lines.length && lines[i + 1]!.startsWith('#')) {
        const text = lines[++i]!.replace(/^#\s*/, '');
        if (!/^(\(|with )/.test(text)) shown.push(text); // prose about the output, not the output
      }
      examples.push({ command, shown: shown.length > 0 ? shown.join('') : undefined });
    }
  }
  return examples;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The shown output as a pattern of what the server may answer. */
export function shownPattern(shown: string): RegExp {
  let pattern = '';
  let last = 0;
  for (const m of shown.matchAll(/ ?[0-9a-f]*… ?|-?\d+\.\d{6,}(?:e-?\d+)?|\b\d{10}\b/g)) {
    pattern += escape(shown.slice(last, m.index));
    const token = m[0];
    if (token.trim().endsWith('…'))
      pattern += '[\\s\\S]*?'; // a shortened id (its shown prefix is an example's) or elided text
    else if (/^\d{10}$/.test(token)) pattern += '\\d{10}';
    else pattern += `${escape(token.slice(0, token.indexOf('.') + 6))}\\d*(?:e-?\\d+)?`;
    last = m.index + token.length;
  }
  return new RegExp(`^${pattern + escape(shown.slice(last))}$`);
}

beforeAll(async () => {
  server = await startDevServer({ RERANK_MODELS: '', RERANK_API_KEYS: KEY });
});

afterAll(async () => {
  await server?.stop();
});

describe('the curl examples of docs/clients.md', () => {
  const examples = curlExamples(readFileSync(join(ROOT, 'docs/clients.md'), 'utf8'));

  it('answer what the page shows', async () => {
    expect(examples.length).toBeGreaterThan(0);
    const env = { ...process.env, AUTH: `Authorization: Bearer ${KEY}`, RERANK_KEY: KEY };
    for (const example of examples) {
      const command = example.command.replaceAll('localhost:3000', new URL(server.url).host);
      const output = (await run('bash', ['-c', command], { env, maxBuffer: 1 << 20 })).stdout.trim();
      expect(output, `${example.command}\nshown:  ${example.shown}\nactual: ${output}`).toMatch(shownPattern(example.shown!));
    }
  });
});

describe('the README examples', () => {
  const examples = curlExamples(readFileSync(join(ROOT, 'README.md'), 'utf8'));

  it('are found: one call per dialect, the models, a job and its poll, a refusal', () => {
    expect(examples.length).toBeGreaterThanOrEqual(8);
    expect(examples.every((e) => e.shown !== undefined)).toBe(true);
  });

  it('answer what the README shows', async () => {
    const host = new URL(server.url).host;
    const env = { ...process.env, AUTH: `Authorization: Bearer ${KEY}`, RERANK_KEY: KEY };
    let jobId = '';
    for (const example of examples) {
      const command = example.command
        .replaceAll('localhost:3000', host)
        .replace(/\/v1\/rerank\/jobs\/[0-9a-f]+…/, `/v1/rerank/jobs/${jobId}`);
      const pattern = shownPattern(example.shown!);
      // A poll may find the job still running: poll as a reader would, until it ends.
      let output = '';
      for (let attempt = 0; attempt < 50; attempt++) {
        output = (await run('bash', ['-c', command], { env, maxBuffer: 1 << 20 })).stdout.trim();
        if (!output.includes('"status":"running"') || example.shown!.includes('"status":"running"')) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      jobId = /location: \/v1\/rerank\/jobs\/([0-9a-f-]+)/i.exec(output)?.[1] ?? jobId;
      expect(output, `${example.command}\nshown:  ${example.shown}\nactual: ${output}`).toMatch(pattern);
    }
  });
});

describe("the README's SDK call", () => {
  const snippets = blocksOf('README.md', readFileSync(join(ROOT, 'README.md'), 'utf8')).filter(isClientSnippet);

  it('prints what the README shows under it', async () => {
    expect(snippets.map((b) => b.lang)).toEqual(['ts']);
    for (const block of snippets) {
      const shown = [...block.text.matchAll(/^\/\/ (.*)$/gm)].map((m) => m[1] as string);
      const printed = (await runClientSnippet(block, server.url, KEY)).trim().split('\n');
      expect(shown.length).toBeGreaterThan(0);
      expect(printed).toHaveLength(shown.length);
      printed.forEach((line, i) => expect(line).toMatch(shownPattern(shown[i] as string)));
    }
  }, 240_000);
});
