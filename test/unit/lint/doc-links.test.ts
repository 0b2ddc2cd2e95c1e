import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles } from '../../../scripts/support/list-files.js';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Every Markdown page a reader follows links between: the root guides, docs/, bench/, eval/, the client's and scripts' READMEs. */
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'SECURITY.md',
  'CHANGELOG.md',
  'shared/client/README.md',
  'scripts/README.md',
  ...listFiles(ROOT, ['docs', 'bench', 'eval'], (name) => name.endsWith('.md')),
];

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, each space a `-`. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replaceAll(/[^\p{L}\p{N}\s_-]/gu, '')
    .replaceAll(/\s/g, '-');
}

/** The anchors a page's headings give, outside fenced blocks (a repeated heading gets `-1`, `-2`, ... as on GitHub). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.*)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = headingAnchor(heading);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** The relative link targets of a page, outside fenced blocks and inline code: `[text](target)`. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replaceAll(/^```[\s\S]*?^```/gm, '').replaceAll(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/.test(target));
}

describe('links between the Markdown pages', () => {
  it('finds the pages and their links', () => {
    expect(PAGES).toContain('docs/api.md');
    expect(PAGES).toContain('eval/README.md');
    expect(PAGES.flatMap((page) => linksOf(readFileSync(join(ROOT, page), 'utf8'))).length).toBeGreaterThan(100);
  });

  it('each reach a file of the repository, and a heading of it when they name one', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const target of linksOf(readFileSync(join(ROOT, page), 'utf8'))) {
        const [path = '', anchor] = target.split('#');
        const file = path === '' ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURIComponent(path));
        if (!existsSync(file)) broken.push(`${page}: ${target} (no such file)`);
        else if (anchor !== undefined && !statSync(file).isDirectory() && file.endsWith('.md')) {
          if (!anchorsOf(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${page}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('name headings by the anchors GitHub gives them', () => {
    expect(headingAnchor('Batches (OpenAI / Voyage batch API)')).toBe('batches-openai--voyage-batch-api');
    expect(headingAnchor('504 `job_still_running`')).toBe('504-job_still_running');
  });
});
