/**
 * fast-check runs per property, per `npx vitest run test/property` (before `FC_RUNS_SCALE`). Issue 7
 * asks for at least 10,000 generated malformed or extreme requests per run; `malformedTotal` checks it.
 */
export const MALFORMED_RUNS = {
  openai: { arbitraryJson: 800, nearValid: 1_400, rawBody: 300 },
  dashscope: { arbitraryJson: 800, nearValid: 1_400, rawBody: 300 },
  chat: { arbitraryJson: 500, nearValid: 1_100, contentText: 900, rawBody: 200 },
  routes: { submitJob: 600, getJob: 600, modelsAndHealth: 300, unknownPaths: 1_000, withAuth: 700 },
} as const;

export const VALID_RUNS = { openai: 250, dashscope: 200, chat: 250, respondAsync: 100, overSyncLimit: 30 } as const;

const sum = (runs: Readonly<Record<string, number>>): number => Object.values(runs).reduce((a, b) => a + b, 0);

export const malformedTotal = (): number => Object.values(MALFORMED_RUNS).reduce((total, runs) => total + sum(runs), 0);
