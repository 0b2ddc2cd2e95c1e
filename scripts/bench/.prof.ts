import { loadOnnxCrossEncoder } from '/work/main/shared/scoring/onnx-cross-encoder.js';
import { createPairTokenizer } from '/work/main/shared/scoring/pair-tokenizer.js';
import { readModelFolder } from '/work/main/shared/scoring/model-folder.js';
import { benchRequest, readWords } from '/work/main/scripts/bench/bench-documents.js';
const name = process.argv[2] ?? 'minilm-l6'; const file = process.argv[3] ?? 'onnx/model_quantized.onnx'; const n = Number(process.argv[4] ?? 128);
const folder = `/work/main/bench/.models/${name}`;
const req = benchRequest(readWords(`${folder}/vocab.txt`), n);
const f = await readModelFolder(folder, { modelFile: file });
const tok = createPairTokenizer({ ...f, padTokenId: f.config.padTokenId });
let t = performance.now(); const q = tok.pieces(req.query); const pairs = req.documents.map((d) => tok.assemble(q, tok.pieces(d)));
const tokMs = performance.now() - t;
const lens = pairs.map(p => p.inputIds.length); console.log('mean len', lens.reduce((a,b)=>a+b,0)/lens.length, 'max', Math.max(...lens));
t = performance.now(); const s = await loadOnnxCrossEncoder({ id: 'x', folder, modelFile: file }); console.log('load ms', performance.now() - t);
await s.score(req.query, req.documents.slice(0, 8));
for (let i = 0; i < 3; i++) { t = performance.now(); await s.score(req.query, req.documents); const ms = performance.now() - t; console.log(`score ${ms.toFixed(0)} ms, ${(n / ms * 1000).toFixed(1)} pairs/s, tokenize ${tokMs.toFixed(1)} ms (${(tokMs / ms * 100).toFixed(1)}%)`); }
