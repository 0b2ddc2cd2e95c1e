import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { LENGTH_MIX } from './bench-documents.js';
import type { BenchResults, ThroughputRow } from './bench-results.js';
import { fmt } from './bench-stats.js';
import { groupedBarChartSvg } from './svg-bar-chart.js';

const ratio = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined || b === undefined ? undefined : a / b;
const x = (value: number | undefined): string => (value === undefined || !Number.isFinite(value) ? 'n/a' : `${value.toFixed(2)}x`);
const verdict = (values: (number | undefined)[], target: number): string => {
  const known = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  if (known.length === 0) return 'not measured';
  return known.every((v) => v >= target) ? '**met**' : known.some((v) => v >= target) ? '**partly met**' : '**not met**';
};

function table(header: string[], rows: (string | number)[][]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** CrossEncoder runs fp32 only: an int8 row is compared with the fp32 CrossEncoder of the same model and thread count. */
function crossEncoderFor(rows: readonly ThroughputRow[], row: ThroughputRow): number | undefined {
  return row.crossEncoder ?? rows.find((r) => r.model === row.model && r.threads === row.threads && r.variant === 'fp32')?.crossEncoder;
}

/** The bf16 CrossEncoder of the same model and thread count (measured on the fp32 row, where the CPU has bf16 hardware). */
function crossEncoderBf16For(rows: readonly ThroughputRow[], row: ThroughputRow): number | undefined {
  return (
    row.crossEncoderBf16 ?? rows.find((r) => r.model === row.model && r.threads === row.threads && r.variant === 'fp32')?.crossEncoderBf16
  );
}

const bestPythonOrt = (r: ThroughputRow): number | undefined =>
  r.pythonOrtSessions === undefined && r.pythonOrtOneSession === undefined
    ? undefined
    : Math.max(r.pythonOrtSessions ?? 0, r.pythonOrtOneSession ?? 0);

/** Writes bench/report.md and bench/throughput.svg; returns the paths. */
export function writeReport(results: BenchResults, benchDir: string): string[] {
  const svgPath = path.join(benchDir, 'throughput.svg');
  const reportPath = path.join(benchDir, 'report.md');
  const rows = results.runs.flatMap((r) => r.throughput);
  const threadCounts = results.runs.map((r) => r.threads);
  const maxThreads = Math.max(...threadCounts);
  const models = [...new Set(rows.map((r) => r.model))];
  writeFileSync(
    svgPath,
    groupedBarChartSvg(
      'Cross-encoder throughput by thread count (median pairs/s, higher is better)',
      'pairs/s',
      models.map((model) => ({
        title: `${model} shape`,
        groups: rows
          .filter((r) => r.model === model)
          .map((r) => ({
            label: `${r.variant}, ${r.threads} thr`,
            bars: [
              { series: 'ours (plan)', value: r.ours },
              { series: 'ours, one N-thread session', value: r.oursOneSession },
              { series: 'Python ort, N sessions', value: r.pythonOrtSessions },
              { series: 'Python ort, one session', value: r.pythonOrtOneSession },
              { series: 'CrossEncoder (PyTorch fp32)', value: crossEncoderFor(rows, r) },
              ...(rows.some((t) => t.crossEncoderBf16 !== undefined)
                ? [{ series: 'CrossEncoder (PyTorch bf16, AMX)', value: crossEncoderBf16For(rows, r) }]
                : []),
            ],
          })),
      })),
    ),
  );

  const at = (model: string, variant: string, threads: number): ThroughputRow | undefined =>
    rows.find((r) => r.model === model && r.variant === variant && r.threads === threads);
  const scaling = (pick: (r: ThroughputRow) => number | undefined, model: string, variant: string, n: number): number | undefined => {
    const one = at(model, variant, 1);
    const many = at(model, variant, n);
    return one === undefined || many === undefined ? undefined : ratio(pick(many), pick(one));
  };
  const mini = (variant: string): ThroughputRow[] => rows.filter((r) => r.model.startsWith('MiniLM') && r.variant === variant);
  const tiny = rows.filter((r) => r.model.startsWith('TinyBERT'));
  const spearmans = results.runs.flatMap((r) => r.spearman.map((s) => ({ ...s, threads: r.threads })));
  const latency = results.runs.flatMap((r) => r.latency);
  const extras = results.runs.find((r) => r.extras !== undefined)?.extras;
  const shippedInt8 = extras?.quantization.find((q) => q.variant === 'int8')?.description.replace(/^shipped model_quantized\.onnx: /, '');
  const rankOf = (r: ThroughputRow): string => {
    if (r.variant === 'fp32') return '1 (reference)';
    const s = spearmans.find((t) => t.model === r.model && t.threads === r.threads);
    return s === undefined ? 'n/a' : `${s.rho.toFixed(4)} / ${s.spreadRho === undefined ? 'n/a' : s.spreadRho.toFixed(4)}`;
  };
  const spreadRhos = spearmans.filter((s) => s.spreadRho !== undefined);
  const versions = results.runs[0]?.versions ?? {};
  const notes = [...new Set(results.runs.flatMap((r) => r.notes))];

  const lines: string[] = [
    '# Rerank scoring benchmark',
    '',
    `Generated by \`npm run bench${results.quick ? ' -- --quick' : ''} -- --threads ${threadCounts.join(',')}\` (scripts/measure/scoring/run-bench.ts) on ${results.date.slice(0, 16)} UTC. ` +
      `Machine: ${results.machine.cpus}, ${fmt(results.machine.memoryGb, 0)} GiB, Node ${results.machine.node}, onnxruntime-node ${results.machine.onnxruntimeNode}. ` +
      'Each thread count ran in its own process, pinned with `taskset` to that many cores where possible; inside it every runtime ran ' +
      'on the same graphs and inputs, interleaved repetition by repetition. Figures are medians.',
    '',
    `**Noisy machine**: this host has ${results.machine.cpus.split(' x ')[0]} cores shared with other jobs; 1-minute load average per run: ` +
      results.runs
        .map(
          (r) =>
            `${r.threads} thread(s) ${fmt(r.loadAverageStart[0], 1)} -> ${fmt(r.loadAverageEnd[0], 1)}${r.pinnedCores ? ` (cores ${r.pinnedCores})` : ' (not pinned)'}`,
        )
        .join(', ') +
      '. Read the ratios (measured side by side in the same seconds), not the absolute pairs/s; re-run on a quiet machine with `--threads 1,2,4,6` for 4-6 threads.',
    '',
    `Versions: ${Object.entries(versions)
      .filter(([k, v]) => v && !k.endsWith('_error'))
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
    'Models: random weights with the exact shapes of `cross-encoder/ms-marco-MiniLM-L-6-v2` (384 hidden, 6 layers, 12 heads) and ' +
      '`cross-encoder/ms-marco-TinyBERT-L-2-v2` (128 hidden, 2 layers), real bert-base-uncased WordPiece tokenizer (`scripts/model/build-random-shapes.py`). ' +
      `fp32 = \`onnx/model.onnx\`; int8 = \`onnx/model_quantized.onnx\` as built for this run by the converters' recipe (\`scripts/model/int8_recipes.py\` SHIPPED${shippedInt8 === undefined ? '' : ` at the time: ${shippedInt8}`}). Documents: seeded synthetic ` +
      'English-vocabulary text, ' +
      LENGTH_MIX.map((b) => `${Math.round(b.share * 100)}% ${b.minWords}-${b.maxWords} words (${b.what})`).join(', ') +
      '; shuffled. Batching: 8 pairs, 4,096 padded tokens, rows x width^2 <= 128^2 so pairs of 128+ tokens run alone (the scorer defaults).',
    '',
    '"ours" is the scorer as the service runs it: `chooseExecutionPlan` (shared/scoring/onnx-runtime/execution-plan.ts) gives one single-threaded ' +
      'ONNX session per CPU on worker threads, batches start costliest first (`scheduleBatches`, attention-aware cost), and small requests are split ' +
      'across the sessions. "one N-thread session" is the scorer before this plan (one in-thread session with N intra-op threads, same batches).',
    '',
    ...notes.map((n) => `> Note: ${n}`),
    '',
    '## Targets',
    '',
    "Wall-clock ratios of medians in one run. On a shared machine PyTorch's OpenMP threads stall when a core is taken away, so at 2+ threads " +
      'read these beside the load averages above; bench/cpu-forms.md has the same MiniLM-L6 rows in pairs per process CPU-second ' +
      "(`scripts/measure/scoring/cpu-forms.py`), with each run's load.",
    '',
    table(
      ['target', 'measured', 'verdict'],
      [
        [
          'MiniLM-L6 int8 >= 2x CrossEncoder (PyTorch fp32), each thread count',
          mini('int8')
            .map((r) => `${r.model} ${r.threads} thr ${x(ratio(r.ours, crossEncoderFor(rows, r)))}`)
            .join(', ') || 'n/a',
          verdict(
            mini('int8').map((r) => ratio(r.ours, crossEncoderFor(rows, r))),
            2,
          ),
        ],
        [
          'MiniLM-L6 fp32 >= 1.15x CrossEncoder, each thread count',
          mini('fp32')
            .map((r) => `${r.model} ${r.threads} thr ${x(ratio(r.ours, r.crossEncoder))}`)
            .join(', ') || 'n/a',
          verdict(
            mini('fp32').map((r) => ratio(r.ours, r.crossEncoder)),
            1.15,
          ),
        ],
        [
          'MiniLM-L6 int8 >= CrossEncoder bf16 (PyTorch on AMX) at 1 thread, where the CPU has bf16 hardware',
          mini('int8')
            .filter((r) => r.threads === 1)
            .map((r) => `${r.model} ${x(ratio(r.ours, crossEncoderBf16For(rows, r)))}`)
            .join(', ') || 'n/a',
          rows.some((r) => r.crossEncoderBf16 !== undefined)
            ? verdict(
                mini('int8')
                  .filter((r) => r.threads === 1)
                  .map((r) => ratio(r.ours, crossEncoderBf16For(rows, r))),
                1,
              )
            : 'not measured (no AMX / AVX-512 BF16 on this CPU)',
        ],
        [
          'TinyBERT-L2 >= 1.0x Python onnxruntime on the same graph (its faster plan), both variants',
          tiny.map((r) => `${r.variant} ${r.threads} thr ${x(ratio(r.ours, bestPythonOrt(r)))}`).join(', ') || 'n/a',
          verdict(
            tiny.map((r) => ratio(r.ours, bestPythonOrt(r))),
            1.0,
          ),
        ],
        [
          `Scaling: ${maxThreads} threads vs 1 (target 4.5x at 6 threads, i.e. 75% of linear)`,
          (rows
            .filter((r) => r.threads === maxThreads && maxThreads > 1)
            .map((r) => `${r.model} ${r.variant} ${x(scaling((t) => t.ours, r.model, r.variant, maxThreads))}`)
            .join(', ') || 'n/a') +
            (rows.some((r) => r.threads === maxThreads && (scaling((t) => t.ours, r.model, r.variant, maxThreads) ?? 0) > maxThreads)
              ? ` (above ${maxThreads}x is impossible on ${maxThreads} cores: the machine's load changed between the runs, so read the same-run ratios instead)`
              : ''),
          verdict(
            rows
              .filter((r) => r.threads === maxThreads && maxThreads > 1)
              .map((r) => scaling((t) => t.ours, r.model, r.variant, maxThreads)),
            0.75 * maxThreads,
          ),
        ],
        [
          'int8 ranks like fp32: Spearman >= 0.99 on the bench documents',
          spearmans.map((s) => `${s.model} ${s.threads} thr ${s.rho.toFixed(4)}`).join(', ') || 'n/a',
          verdict(
            spearmans.map((s) => s.rho),
            0.99,
          ),
        ],
        [
          'beside it, synthetic check: the same int8 recipe on the spread copies (same shapes, init std 0.1: logits that spread), Spearman >= 0.99',
          spreadRhos.map((s) => `${s.model} ${s.threads} thr ${s.spreadRho!.toFixed(4)}`).join(', ') ||
            'not built (`build-random-shapes.py --init-range 0.1`)',
          verdict(
            spreadRhos.map((s) => s.spreadRho),
            0.99,
          ),
        ],
        [
          'Latency at 10 / 100 / 1,000 documents does not regress (p50, plan vs one session; >= 1 = not slower)',
          latency
            .map((l) => `${l.model.split(' ')[0]} ${l.documents} docs ${l.threads} thr ${x(ratio(l.oneSessionP50Ms, l.oursP50Ms))}`)
            .join(', ') || 'n/a',
          verdict(
            latency.map((l) => ratio(l.oneSessionP50Ms, l.oursP50Ms)),
            0.95,
          ),
        ],
        [
          'The plan does not change results (max |plan - one session| over each request)',
          `max ${Math.max(...rows.map((r) => r.maxScoreDeviation)).toExponential(1)}`,
          rows.every((r) => r.maxScoreDeviation <= 1e-6) ? '**met** (<= 1e-6)' : '**not met**',
        ],
      ],
    ),
    '',
    '## Throughput (pairs/s, median)',
    '',
    '![throughput](throughput.svg)',
    '',
    table(
      [
        'model',
        'variant',
        'threads',
        'our plan',
        'docs x reps',
        'mean tokens',
        'ours',
        'ours, one N-thread session',
        'Python ort, N sessions',
        'Python ort, one session',
        'CrossEncoder (PyTorch fp32)',
        'CrossEncoder (PyTorch bf16, AMX)',
        'ours / CrossEncoder',
        'ours / CrossEncoder bf16',
        'ours / best Python ort',
        'Spearman vs fp32 (bench model / spread copy)',
        'tokenization share (ours / Python)',
        'mean score ours / ort / CrossEncoder',
      ],
      rows.map((r) => [
        r.model,
        r.variant,
        r.threads,
        r.plan,
        `${r.documents} x ${r.reps}`,
        fmt(r.meanTokens, 0),
        fmt(r.ours),
        fmt(r.oursOneSession),
        fmt(r.pythonOrtSessions),
        fmt(r.pythonOrtOneSession),
        fmt(crossEncoderFor(rows, r)),
        fmt(crossEncoderBf16For(rows, r)),
        x(ratio(r.ours, crossEncoderFor(rows, r))),
        x(ratio(r.ours, crossEncoderBf16For(rows, r))),
        x(ratio(r.ours, bestPythonOrt(r))),
        rankOf(r),
        `${fmt(r.tokenizeShare * 100)}% / ${r.pythonTokenizeShare === undefined ? 'n/a' : `${fmt(r.pythonTokenizeShare * 100)}%`}`,
        `${fmt(r.meanScore.ours, 4)} / ${fmt(r.meanScore.ort, 4)} / ${fmt(r.meanScore.st, 4)}`,
      ]),
    ),
    '',
    'CrossEncoder runs PyTorch fp32 and, where the CPU has AMX / AVX-512 BF16, bf16 (`model_kwargs={"torch_dtype": torch.bfloat16}`, ' +
      'oneDNN on AMX tiles: the fastest PyTorch a Sapphire Rapids instance offers); int8 rows compare our int8 against both. ' +
      'onnxruntime has no x86 bf16 GEMM switch (`mlas.enable_gemm_fastmath_arm64_bfloat16` is arm64-only), so our answer to bf16 there is int8. Python ' +
      'onnxruntime tokenizes with the Rust `tokenizers` (`encode_batch`) and uses the same batches; "N sessions" is our plan in Python (a thread ' +
      'per session pulling the costliest batch next). Same-graph mean scores agreeing shows the runs did the same work (the CrossEncoder ' +
      'mean is after its default sigmoid, so it is not comparable; only its speed is).',
    '',
    '## Scaling (throughput at N threads / 1 thread)',
    '',
    threadCounts.length < 2 || !threadCounts.includes(1)
      ? 'Needs 1 and at least one more thread count in `--threads`.'
      : table(
          [
            'model',
            'variant',
            'threads',
            'ours (plan)',
            'ours, one N-thread session',
            'Python ort, N sessions',
            'Python ort, one session',
            'CrossEncoder',
          ],
          rows
            .filter((r) => r.threads > 1)
            .map((r) => [
              r.model,
              r.variant,
              r.threads,
              x(scaling((t) => t.ours, r.model, r.variant, r.threads)),
              x(scaling((t) => t.oursOneSession, r.model, r.variant, r.threads)),
              x(scaling((t) => t.pythonOrtSessions, r.model, r.variant, r.threads)),
              x(scaling((t) => t.pythonOrtOneSession, r.model, r.variant, r.threads)),
              x(scaling((t) => crossEncoderFor(rows, t), r.model, r.variant, r.threads)),
            ]),
        ),
    '',
    '## int8 vs fp32 rankings (our scores, same documents)',
    '',
    table(
      [
        'model',
        'threads',
        'documents',
        'Spearman rho',
        'max |int8 - fp32| / fp32 score range',
        'spread copy: Spearman rho',
        'spread copy: max |diff| / range',
      ],
      spearmans.map((s) => [
        s.model,
        s.threads,
        s.documents,
        s.rho.toFixed(4),
        fmt(s.maxAbsDiffOverRange, 3),
        s.spreadRho === undefined ? 'n/a' : s.spreadRho.toFixed(4),
        fmt(s.spreadMaxAbsDiffOverRange, 3),
      ]),
    ),
    '',
    "The bench models have random weights at BERT's init scale: every document scores within about 1-2% of a logit of the others, so an " +
      'int8 error of the same size reorders them (max |diff| / range near 1). The spread copies (`build-random-shapes.py --init-range 0.1`: the ' +
      'same shapes and seed, weights drawn 5x wider) score documents whole logits apart, as a trained reranker does; their figure is a synthetic ' +
      'check of the same recipe, reported beside the bench figure, not instead of it. bench/quantization-recipes.md also checks a trained ' +
      'TinyBERT-L2 copy.',
    '',
    '## Latency per request (int8, one request at a time)',
    '',
    table(
      ['model', 'threads', 'documents', 'samples', 'ours p50 / p95 ms', 'one N-thread session p50 / p95 ms', 'one session / ours (p50)'],
      latency.map((l) => [
        l.model,
        l.threads,
        l.documents,
        l.samples,
        `${fmt(l.oursP50Ms, 0)} / ${fmt(l.oursP95Ms, 0)}`,
        `${fmt(l.oneSessionP50Ms, 0)} / ${fmt(l.oneSessionP95Ms, 0)}`,
        x(ratio(l.oneSessionP50Ms, l.oursP50Ms)),
      ]),
    ),
    '',
  ];
  if (extras !== undefined) {
    lines.push(
      `## Session options and batch size (int8, raw session, sequential batches, ${extras.threads}-thread run; relative to the plan session)`,
      '',
      table(
        ['model', 'options', 'pairs/s', 'relative'],
        extras.sessionOptions.map((s) => [s.model, s.config, fmt(s.pairsPerSecond), x(s.relative)]),
      ),
      '',
      'The first rows change one thing on the single-threaded session each plan worker runs; the last rows are one session using all threads ' +
        '(the pre-plan default) with the parallel-loop knobs (`session.intra_op.allow_spinning`, `session.dynamic_block_base`).',
      '',
      `Did not beat the plan session here (relative < 1.05x in every model): ${
        [...new Set(extras.sessionOptions.map((o) => o.config))]
          .filter(
            (c) => !c.startsWith('plan session') && extras.sessionOptions.filter((o) => o.config === c).every((o) => o.relative < 1.05),
          )
          .join('; ') || 'none'
      }. Single-threaded sessions have no thread pool, so spinning and block sizes do not apply to the plan at all.`,
      '',
      `## Quantization variants (our plan, ${extras.threads} threads, interleaved; vs fp32 = median same-repetition ratio; built by scripts/measure/scoring/quantize-variants.py)`,
      '',
      extras.quantization.length === 0
        ? 'Not measured (variants not built).'
        : table(
            [
              'model',
              'variant',
              'what',
              'MB',
              'pairs/s',
              'vs fp32',
              'Spearman vs fp32',
              'max |score - fp32| (/ fp32 range)',
              'spread copy: Spearman vs fp32',
            ],
            extras.quantization.map((q) => [
              q.model,
              q.variant,
              q.description,
              fmt(q.megabytes, 1),
              fmt(q.pairsPerSecond),
              x(q.relativeToFp32),
              q.spearmanVsFp32.toFixed(4),
              `${fmt(q.maxAbsDiffVsFp32, 3)} (${fmt(q.maxAbsDiffOverRange, 2)})`,
              q.spreadSpearmanVsFp32 === undefined ? 'n/a' : q.spreadSpearmanVsFp32.toFixed(4),
            ]),
          ),
      '',
      "Rank agreement of random-weight models understates a trained one's: their logits barely differ between documents (a random head), so " +
        'quantization noise of the same size reorders them; a trained reranker spreads relevant and irrelevant documents by whole logits. ' +
        "Dynamically quantized graphs (`DynamicQuantizeLinear`) also pick activation scales per run, so a document's score depends on its batch " +
        'mates; the scheduler keeps the one-session batches for them (`quantizesActivationsPerRun`), while fp32 and static (QDQ) graphs may be re-cut.',
      '',
      'Which int8 to ship per architecture (what `model:pull` / the converters should produce): README "int8 quantization" and ' +
        'bench/quantization-recipes.md (every recipe: speed in CPU time, Spearman on the bench models, their spread copies and a trained ' +
        'TinyBERT-L2 copy). In short: `model_quantized.onnx` = dynamic, MatMul + Gather, QInt8 per tensor everywhere; on x86 without VNNI ' +
        '(AVX2-only CPUs such as the AMD EPYC earlier reports ran on) u8 x s8 products can saturate, so `model_quint8_avx2.onnx` (QUInt8, ' +
        '`export-onnx.py --int8-arch x86-avx2`) is the fallback when int8 ranks drift; arm64 (SDOT/UDOT, I8MM) and VNNI take QInt8 as is; on ' +
        'Graviton3+ fp32 with `mlas.enable_gemm_fastmath_arm64_bfloat16` is the bf16 alternative. The kernels measured here are the ones ' +
        'onnxruntime picks for the CPU named above (it chooses by CPUID at start-up; nothing selects another ISA at run time); arm64 is not measured.',
      '',
      `## Length-aware batching vs padding (int8, raw ${extras.threads}-thread session, same tokenized pairs)`,
      '',
      table(
        ['model', 'strategy', 'pairs/s', 'padded tokens', 'length-aware speedup'],
        extras.padding.map((p) => [p.model, p.strategy, fmt(p.pairsPerSecond), p.paddedTokens, x(p.speedupOfLengthAware)]),
      ),
      '',
      `## Cold start (fresh process each run, median, ${extras.threads} threads: the plan's worker sessions load in parallel)`,
      '',
      table(
        ['model', 'runs', 'import scorer + onnxruntime-node ms', 'model load + sessions ms', 'first 10-document request ms'],
        extras.coldStart.map((c) => [c.model, c.runs, fmt(c.importMs, 0), fmt(c.loadMs, 0), fmt(c.firstScoreMs, 0)]),
      ),
      '',
      'Import time includes tsx transpiling the TypeScript sources; a bundled Lambda pays less.',
      '',
      '## Concurrent requests (local server)',
      '',
      'One client streams 200-document requests back to back while two clients send 10-document requests (10 ms think time). ' +
        '"Event-loop delay" is how long any other work on the server (a health check, reading a request) waits.',
      '',
      table(
        [
          'setup',
          'model',
          '10 docs alone p50 ms',
          '10 docs under load p50 / p95 ms',
          'small / large requests done',
          'event-loop delay p99 / max ms',
          'total pairs/s',
        ],
        extras.concurrency.map((c) => [
          c.setup,
          c.model,
          fmt(c.aloneP50Ms, 1),
          `${fmt(c.smallP50Ms, 0)} / ${fmt(c.smallP95Ms, 0)}`,
          `${c.smallRequests} / ${c.largeRequests}`,
          `${fmt(c.eventLoopDelayP99Ms, 0)} / ${fmt(c.eventLoopDelayMaxMs, 0)}`,
          fmt(c.pairsPerSecond, 0),
        ]),
      ),
      '',
    );
  }
  writeFileSync(reportPath, lines.join('\n'));
  return [reportPath, svgPath];
}
