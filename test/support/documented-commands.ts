import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** The pages a reader follows: the README, the docs/ folder and the two guides beside the README. */
export const DOCUMENTED_PAGES: readonly string[] = [
  'README.md',
  'CONTRIBUTING.md',
  'SECURITY.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

export interface DocumentedCommand {
  /** The page it is on, e.g. `docs/deploy-aws.md`. */
  readonly page: string;
  /** Its first line's number on that page. */
  readonly line: number;
  /** The command as a reader pastes it: continuation lines joined with newlines, the trailing comment kept. */
  readonly text: string;
  /** Which fenced block of its page it is in (0 = the page's first block of any language). */
  readonly block: number;
}

/** A fenced code block of a page, as a reader copies it. */
export interface DocumentedBlock {
  readonly page: string;
  /** The line of its opening fence. */
  readonly line: number;
  /** Its position among the page's fenced blocks (as DocumentedCommand.block counts). */
  readonly block: number;
  /** The info string: `bash`, `python`, `ts`, ... */
  readonly lang: string;
  readonly text: string;
}

/** Every fenced block of a page, in order. */
export function blocksOf(page: string, markdown: string): DocumentedBlock[] {
  const blocks: DocumentedBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('```')) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !lines[i]!.startsWith('```')) body.push(lines[i]!);
    blocks.push({ page, line: start + 1, block: blocks.length, lang: lines[start]!.slice(3).trim(), text: `${body.join('\n')}\n` });
  }
  return blocks;
}

export function documentedBlocks(): DocumentedBlock[] {
  return DOCUMENTED_PAGES.flatMap((page) => blocksOf(page, readFileSync(join(ROOT, page), 'utf8')));
}

/**
 * Every command of every ```bash block on a page: comment-only and blank lines skipped, a command going on after a
 * trailing backslash or while a single-quoted argument is open (as bash reads it).
 */
export function commandsOf(page: string, markdown: string): DocumentedCommand[] {
  const commands: DocumentedCommand[] = [];
  const lines = markdown.split('\n');
  let inBash = false;
  let inBlock = false;
  let block = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      inBlock = !inBlock;
      if (inBlock) block++;
      inBash = inBlock && line === '```bash';
      continue;
    }
    if (!inBash || line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const first = i;
    let text = line;
    const open = (t: string): boolean => t.endsWith('\\') || withoutComment(t).split("'").length % 2 === 0;
    while (open(text) && i + 1 < lines.length && !lines[i + 1]!.startsWith('```')) text += `\n${lines[++i]}`;
    commands.push({ page, line: first + 1, text, block });
  }
  return commands;
}

/** A command line without its trailing `# comment` (a # outside quotes after a space). */
export function withoutComment(text: string): string {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) return text.slice(0, i).trimEnd();
  }
  return text;
}

export function documentedCommands(): DocumentedCommand[] {
  return DOCUMENTED_PAGES.flatMap((page) => commandsOf(page, readFileSync(join(ROOT, page), 'utf8')));
}

/** `-c key=value` pairs of a `cdk` command (values here never hold spaces or quotes). */
export function cdkContextArgs(command: string): Record<string, string> {
  const words = withoutComment(command.replaceAll('\\\n', ' ')).split(/\s+/);
  const context: Record<string, string> = {};
  for (let i = 0; i < words.length; i++) {
    if (words[i] !== '-c' && words[i] !== '--context') continue;
    const pair = words[++i] ?? '';
    const at = pair.indexOf('=');
    context[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return context;
}

/** Every `npm run <script>` a page names, in prose or in a command. */
export function npmScriptsNamed(markdown: string): string[] {
  return [...markdown.matchAll(/npm run (?:--silent |-s )?([a-z][\w:-]*)/g)].map((m) => m[1]!);
}

/**
 * A fenced TypeScript or Python block that is one client call (docs/clients.md's, the README's SDK call), not a step
 * of a batch walkthrough: those name batches or their .jsonl files.
 */
export const isClientSnippet = (block: DocumentedBlock): boolean =>
  (block.lang === 'ts' || block.lang === 'python') && (block.page === 'docs/clients.md' || !/batches|\.jsonl\b/.test(block.text));
