import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { RerankOutcome } from '../core/rerank-outcome.js';
import { scoreStats } from '../core/score-stats.js';
import { logger } from './logger.js';
import { emitMetricEvent } from './metric-events.js';
import { metrics } from './metrics.js';

/**
 * The RAG tool's telemetry, for every scored request: sizes, timings and score distribution (mean, std,
 * gap) as metrics and one structured log line. Never the query or document text.
 */
export function recordRerankMetrics(dialect: string, documents: number, outcome: RerankOutcome): void {
  const stats = scoreStats(outcome.rawScores ?? outcome.results.map((r) => r.score));
  // One request per invocation on Lambda; where nothing flushes between requests (in-process callers),
  // the previous request's dialect must not linger.
  metrics.clearDimensions();
  metrics.addDimension('dialect', dialect);
  metrics.addMetric('Documents', MetricUnit.Count, documents);
  metrics.addMetric('Tokens', MetricUnit.Count, outcome.usage.totalTokens);
  metrics.addMetric('ScoringTime', MetricUnit.Milliseconds, outcome.timings.scoringMs);
  metrics.addMetric('MeanScore', MetricUnit.NoUnit, stats.mean);
  metrics.addMetric('ScoreStd', MetricUnit.NoUnit, stats.std);
  metrics.addMetric('ScoreGap', MetricUnit.NoUnit, stats.gap);
  if (outcome.fallback) metrics.addMetric('Fallbacks', MetricUnit.Count, 1);
  emitMetricEvent({
    kind: 'rerank',
    dialect,
    model: outcome.model,
    documents,
    tokens: outcome.usage.totalTokens,
    scoringSeconds: outcome.timings.scoringMs / 1000,
    fallback: outcome.fallback === true,
  });
  logger.info('rerank', {
    dialect,
    model: outcome.model,
    documents,
    returned: outcome.results.length,
    tokens: outcome.usage.totalTokens,
    scoringMs: Math.round(outcome.timings.scoringMs * 10) / 10,
    meanScore: stats.mean,
    stdScore: stats.std,
    scoreGap: stats.gap,
    fallback: outcome.fallback === true,
  });
}
