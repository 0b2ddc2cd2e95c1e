/**
 * `npm start`'s console, decided before any module builds its logger or metrics (so imported first): unless
 * POWERTOOLS_LOG_LEVEL is set (not empty), one plain line per request (local-server's request lines), warnings and errors in full,
 * and no EMF metric lines (GET /metrics has the same figures). Setting POWERTOOLS_LOG_LEVEL (INFO, DEBUG) brings back
 * the structured request logs and the metric lines, as on AWS.
 */
export const plainRequestLines = (process.env['POWERTOOLS_LOG_LEVEL'] ?? '') === '';
if (plainRequestLines) {
  process.env['POWERTOOLS_LOG_LEVEL'] = 'WARN';
  process.env['POWERTOOLS_METRICS_DISABLED'] ??= 'true';
}
