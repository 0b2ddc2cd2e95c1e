import { describe, expect, it } from 'vitest';
import {
  ALARM_EMAIL_OPT_OUT,
  CONTEXT_PREFIX,
  DEFAULT_RERANK_SETTINGS,
  PITR_FOLLOWS_RETENTION,
  readRerankSettings,
  RerankSettingsError,
  threadsForMemory,
} from '../../infra/config/rerank-settings.js';
import { DEFAULT_MODEL_ID, loadServiceConfig } from '../../shared/config/service-config.js';
import { cdkJsonContext, PROJECT_ROOT } from './support/synth-rerank.js';

/** cdk.json's explicit alarm opt-out under the given context (alarmEmail has no default: the operator chooses). */
const fromContext = (context: Record<string, unknown>) => readRerankSettings((key) => ({ 'rerank:alarmEmail': 'none', ...context })[key]);

describe('rerank cdk context', () => {
  it('cdk.json documents exactly the defaults (the models npm start serves, PITR following the table retention)', () => {
    const rerankKeys = Object.fromEntries(
      Object.entries(cdkJsonContext())
        .filter(([key]) => key.startsWith(CONTEXT_PREFIX))
        .map(([key, value]) => [key.slice(CONTEXT_PREFIX.length), value]),
    );
    // alarmEmail is the dev stage's default only (any other stage must choose), so cdk.json does not repeat it.
    const { alarmEmail: _devOnly, ...documented } = DEFAULT_RERANK_SETTINGS;
    expect(rerankKeys).toEqual({ ...documented, pointInTimeRecovery: PITR_FOLLOWS_RETENTION });
    const { deployModels, ...fromCdkJson } = fromContext(cdkJsonContext());
    const { deployModels: _sameModels, ...fromNothing } = fromContext({});
    expect(fromCdkJson).toEqual(DEFAULT_RERANK_SETTINGS);
    expect(fromNothing).toEqual(DEFAULT_RERANK_SETTINGS);
    expect(deployModels.defaultId).toBe(DEFAULT_MODEL_ID);
    expect(deployModels.models).toEqual(loadServiceConfig({ RERANK_CODE_ROOT: PROJECT_ROOT }).models);
  });

  it('reads -c overrides, which arrive as strings', () => {
    const settings = fromContext({
      'rerank:apiMemoryMb': '4096',
      'rerank:pointInTimeRecovery': 'true',
      'rerank:architecture': 'x86_64',
      'rerank:modelFolder': 'models/minilm-l6',
    });
    expect(settings).toMatchObject({ apiMemoryMb: 4096, pointInTimeRecovery: true, architecture: 'x86_64' });
    expect(settings.deployModels.defaultId).toBe('minilm-l6');
  });

  it.each([
    ['rerank:apiMemoryMb', '100'],
    ['rerank:architecture', 'mips'],
    ['rerank:pointInTimeRecovery', 'yes'],
    ['rerank:workerMaxConcurrency', 1],
    ['rerank:logRetentionDays', 2],
    ['rerank:apiTimeoutSeconds', 30],
    ['rerank:modelFolder', 'a=b'],
    ['rerank:modelId', 'not-a-served-model'],
    ['rerank:models', 'x=hybrid:a'],
    ['rerank:retainTable', 'yes'],
    ['rerank:pointInTimeRecovery', 'on'],
    ['rerank:rateLimitPerMinute', '0'],
    ['rerank:rateLimitPerMinute', '1.5'],
    ['rerank:maxConcurrentJobs', 0],
    ['rerank:upstreamAllowedHosts', 'https://api.cohere.com'],
    ['rerank:upstreamAllowedHosts', 'api.cohere.com/v2'],
    ['rerank:upstreamAllowedHosts', 'a b'],
    ['rerank:upstreamAllowedHosts', 42],
    ['rerank:weaviatePrefix', 'weaviate'],
    ['rerank:weaviatePrefix', '/weaviate/'],
    ['rerank:weaviatePrefix', 42],
    // Removed keys fail with a hint instead of being ignored.
    ['rerank:apiKeysSecretArn', ''],
    ['rerank:removalPolicy', 'retain'],
  ])('rejects %s = %s naming the key', (key, value) => {
    expect(() => fromContext({ [key]: value })).toThrow(RerankSettingsError);
    expect(() => fromContext({ [key]: value })).toThrow(key);
  });

  it('retains the table by default with PITR; PITR follows retention unless set', () => {
    expect(fromContext({})).toMatchObject({ retainTable: true, pointInTimeRecovery: true });
    expect(fromContext({ 'rerank:retainTable': 'false' })).toMatchObject({ retainTable: false, pointInTimeRecovery: false });
    expect(fromContext({ 'rerank:retainTable': false, 'rerank:pointInTimeRecovery': 'auto' }).pointInTimeRecovery).toBe(false);
    expect(fromContext({ 'rerank:retainTable': 'false', 'rerank:pointInTimeRecovery': 'true' }).pointInTimeRecovery).toBe(true);
    expect(fromContext({ 'rerank:pointInTimeRecovery': false })).toMatchObject({ retainTable: true, pointInTimeRecovery: false });
  });

  it('points the removed secret setting at the key CLI', () => {
    expect(() => fromContext({ 'rerank:apiKeysSecretArn': 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:k-AbCdEf' })).toThrow(
      /npm run keys/,
    );
  });

  it('reads the key limits and normalizes the upstream host list as URL.host spells hosts', () => {
    expect(fromContext({ 'rerank:rateLimitPerMinute': '1200', 'rerank:maxConcurrentJobs': '5' })).toMatchObject({
      rateLimitPerMinute: 1200,
      maxConcurrentJobs: 5,
    });
    const hosts = (raw: string) => fromContext({ 'rerank:upstreamAllowedHosts': raw }).upstreamAllowedHosts;
    expect(hosts('')).toBe('');
    expect(hosts(' API.Cohere.com , api.jina.ai:8443,,api.cohere.com ')).toBe('api.cohere.com,api.jina.ai:8443');
    expect(hosts('[::1]:8080,localhost:8080')).toBe('[::1]:8080,localhost:8080');
    expect(hosts('*')).toBe('*');
  });

  it('keeps the job wait inside the API timeout (HTTP API integrations stop at 30 s)', () => {
    expect(() => fromContext({ 'rerank:jobWaitMs': 27_000 })).toThrow(/jobWaitMs/);
    expect(fromContext({ 'rerank:jobWaitMs': 26_000, 'rerank:apiReservedConcurrency': 520 }).jobWaitMs).toBe(26_000);
  });

  it('needs a batching window for worker batches above 10', () => {
    expect(() => fromContext({ 'rerank:workerBatchSize': 20 })).toThrow(/workerBatchingWindowSeconds/);
    expect(fromContext({ 'rerank:workerBatchSize': 20, 'rerank:workerBatchingWindowSeconds': 1 }).workerBatchSize).toBe(20);
  });

  it('makes the operator choose where alarms go: an e-mail address or an explicit none', () => {
    // dev deploys its alarms unsubscribed by default; any other stage must say who is told.
    expect(readRerankSettings(() => undefined).alarmEmail).toBe('none');
    expect(() => readRerankSettings((key) => ({ 'rerank:stage': 'prod' })[key])).toThrow(/rerank:alarmEmail must be set for stage 'prod'/);
    expect(readRerankSettings((key) => ({ 'rerank:stage': 'prod', 'rerank:alarmEmail': 'none' })[key]).alarmEmail).toBe('none');
    expect(() => fromContext({ 'rerank:alarmEmail': '' })).toThrow(/rerank:alarmEmail must be set/);
    expect(() => fromContext({ 'rerank:alarmEmail': 'oncall' })).toThrow(/rerank:alarmEmail/);
    expect(fromContext({ 'rerank:alarmEmail': 'oncall@example.com' }).alarmEmail).toBe('oncall@example.com');
    expect(fromContext({ 'rerank:alarmEmail': ALARM_EMAIL_OPT_OUT }).alarmEmail).toBe('none');
  });

  it('bounds API concurrency: the stage rate times the job wait must fit in the reserved concurrency', () => {
    // cdk.json: 20 rps x 10 s = 200 executions = the API's reserved 200.
    expect(fromContext({})).toMatchObject({ throttleRateLimit: 20, jobWaitMs: 10_000, apiReservedConcurrency: 200 });
    expect(() => fromContext({ 'rerank:throttleRateLimit': 21 })).toThrow(
      /apiReservedConcurrency \(200\) must cover throttleRateLimit x jobWaitMs = 21\/s x 10 s = 210/,
    );
    expect(() => fromContext({ 'rerank:jobWaitMs': 20_000 })).toThrow(/apiReservedConcurrency/);
    expect(
      fromContext({ 'rerank:throttleRateLimit': 50, 'rerank:jobWaitMs': 2_000, 'rerank:apiReservedConcurrency': 100 })
        .apiReservedConcurrency,
    ).toBe(100);
    expect(() => fromContext({ 'rerank:workerMaxConcurrency': 20 })).toThrow(
      /workerReservedConcurrency \(10\) must be at least workerMaxConcurrency \(20\)/,
    );
    expect(() => fromContext({ 'rerank:apiProvisionedConcurrency': 201 })).toThrow(/apiProvisionedConcurrency/);
    expect(fromContext({ 'rerank:apiProvisionedConcurrency': '4' }).apiProvisionedConcurrency).toBe(4);
  });

  it('offers the CodeDeploy rollouts by name and an edge authorizer switch', () => {
    expect(fromContext({ 'rerank:deploymentPreference': 'Linear10PercentEvery1Minute' }).deploymentPreference).toBe(
      'Linear10PercentEvery1Minute',
    );
    expect(() => fromContext({ 'rerank:deploymentPreference': 'YOLO' })).toThrow(/rerank:deploymentPreference/);
    expect(fromContext({ 'rerank:edgeAuthorizer': 'false' }).edgeAuthorizer).toBe(false);
    expect(() => fromContext({ 'rerank:authorizerCacheSeconds': 3601 })).toThrow(/authorizerCacheSeconds/);
  });

  it('gives the scorer one thread per vCPU of the memory size (1,769 MB each, at most 6)', () => {
    expect([512, 1769, 1770, 3008, 3538, 5308, 10_240].map(threadsForMemory)).toEqual([1, 1, 2, 2, 2, 4, 6]);
  });
});
