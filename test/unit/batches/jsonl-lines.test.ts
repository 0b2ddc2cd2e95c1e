import { describe, expect, it } from 'vitest';
import { readJsonlLines, type JsonlLine } from '../../../shared/batches/jsonl-lines.js';

async function* pieces(text: string, size: number): AsyncIterable<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function lines(text: string, size: number, maxLineBytes = 1000): Promise<JsonlLine[]> {
  const out: JsonlLine[] = [];
  for await (const line of readJsonlLines(pieces(text, size), { maxLineBytes })) out.push(line);
  return out;
}

describe('readJsonlLines', () => {
  it('splits lines across read pieces of any size, with file-global byte ranges', async () => {
    const text = '{"a":1}\n{"b":"é"}\r\n\n{"c":3}';
    for (const size of [1, 2, 3, 5, 64]) {
      const got = await lines(text, size);
      expect(got.map((l) => [l.line, l.bytes?.toString('utf8')])).toEqual([
        [1, '{"a":1}'],
        [2, '{"b":"é"}'],
        [3, ''],
        [4, '{"c":3}'],
      ]);
      const bytes = Buffer.from(text, 'utf8');
      for (const line of got)
        expect(bytes.subarray(line.range.start, line.range.end).toString('utf8').replace(/\r$/, '')).toBe(line.bytes?.toString('utf8'));
    }
  });

  it('reports a line past the bound as tooLong without buffering it, and goes on with the next line', async () => {
    const exactly = 'x'.repeat(10);
    const over = 'y'.repeat(11);
    const got = await lines(`${exactly}\n${over}\nz\n`, 3, 10);
    expect(got.map((l) => (l.tooLong ? `${l.line}:too long` : `${l.line}:${l.bytes.toString()}`))).toEqual([
      '1:xxxxxxxxxx',
      '2:too long',
      '3:z',
    ]);
    expect(got[1]?.range).toEqual({ start: 11, end: 22 });
  });

  it('numbers lines from the given first line and offset (a range read of the middle of a file)', async () => {
    const out: JsonlLine[] = [];
    for await (const line of readJsonlLines(pieces('"d"\n"e"', 2), { maxLineBytes: 10, startByte: 100, firstLine: 7 })) out.push(line);
    expect(out.map((l) => [l.line, l.range.start, l.range.end])).toEqual([
      [7, 100, 103],
      [8, 104, 107],
    ]);
  });
});
