import { PutItemCommand, UpdateItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  sumAnalyses,
  type CorpusAnalysisLedger,
  type CorpusAnalysisProgress,
  type SpanAnalysis,
} from '../../batches/corpus-analysis-ledger.js';
import { isConditionFailure } from './condition-failed.js';
import { batchPk } from './batch-table-keys.js';
import { JOB_TABLE_PARTITION_KEY as PK, JOB_TABLE_SORT_KEY as SK, JOB_TABLE_TTL_ATTRIBUTE as TTL } from './job-table-keys.js';
import { queryItems } from './query-items.js';

/** Sort keys on the batch's META partition: one item per expected analysis, one per span reported. */
const EXPECT_PREFIX = 'ANALYSIS#';
const SPAN_PREFIX = 'ANALYSIS_SPAN#';
/** Items outlive the longest completion window and the retention after it, as the batch's other items. */
const LONGEST_WINDOW_SECONDS = 86_400;

const s = (value: string) => ({ S: value });
const n = (value: number) => ({ N: String(value) });

/**
 * CorpusAnalysisLedger on the jobs table, beside the batch's META: an expected analysis is put once (a condition keeps
 * the first); a span's report is an update whose condition refuses a smaller count, so a retried task, which counts its
 * shards again from zero, changes nothing until it passes what was reported. A read is one Query of the partition:
 * the items are a batch's analyses plus their spans (a 1,000,000-document corpus is ~62 spans of 16,384).
 */
export class DynamoDbCorpusAnalysisLedger implements CorpusAnalysisLedger {
  readonly #client: DynamoDBClient;
  readonly #table: string;
  readonly #retentionSeconds: number;
  readonly #clock: () => number;

  constructor(client: DynamoDBClient, table: string, options: { retentionSeconds?: number; clock?: () => number } = {}) {
    this.#client = client;
    this.#table = table;
    this.#retentionSeconds = options.retentionSeconds ?? 30 * 86_400;
    this.#clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
  }

  async expect(batchId: string, analysis: string, documents: number): Promise<void> {
    try {
      await this.#client.send(
        new PutItemCommand({
          TableName: this.#table,
          Item: { [PK]: s(batchPk(batchId)), [SK]: s(`${EXPECT_PREFIX}${analysis}`), documents: n(documents), [TTL]: this.#ttl() },
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': PK },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  async report(batchId: string, analysis: string, spanOffset: number, span: SpanAnalysis): Promise<void> {
    try {
      await this.#client.send(
        new UpdateItemCommand({
          TableName: this.#table,
          Key: { [PK]: s(batchPk(batchId)), [SK]: s(`${SPAN_PREFIX}${analysis}#${spanOffset}`) },
          // `encoded` is only ever set, never cleared: a retry that reads the shards back reports false.
          UpdateExpression: `SET #ready = :ready, #analysis = :analysis, #ttl = :ttl${span.encoded ? ', #encoded = :yes' : ''}`,
          // A smaller count is refused (an equal one may still set `encoded`).
          ConditionExpression: 'attribute_not_exists(#ready) OR #ready <= :ready',
          ExpressionAttributeNames: {
            '#ready': 'ready',
            '#analysis': 'analysis',
            '#ttl': TTL,
            ...(span.encoded ? { '#encoded': 'encoded' } : {}),
          },
          ExpressionAttributeValues: {
            ':ready': n(span.ready),
            ':analysis': s(analysis),
            ':ttl': this.#ttl(),
            ...(span.encoded ? { ':yes': { BOOL: true } } : {}),
          },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  async read(batchId: string): Promise<CorpusAnalysisProgress | undefined> {
    const expected = new Map<string, number>();
    const spans: { analysis: string; span: SpanAnalysis }[] = [];
    for await (const item of queryItems(this.#client, {
      TableName: this.#table,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': PK, '#sk': SK },
      ExpressionAttributeValues: { ':pk': s(batchPk(batchId)), ':prefix': s('ANALYSIS') },
      ConsistentRead: true,
    })) {
      const sk = item[SK]?.S ?? '';
      if (sk.startsWith(SPAN_PREFIX)) {
        const span = { ready: Number(item['ready']?.N ?? 0), encoded: item['encoded']?.BOOL === true };
        spans.push({ analysis: item['analysis']?.S ?? '', span });
      } else if (sk.startsWith(EXPECT_PREFIX)) expected.set(sk.slice(EXPECT_PREFIX.length), Number(item['documents']?.N ?? 0));
    }
    return sumAnalyses(expected, spans);
  }

  #ttl(): { N: string } {
    return n(this.#clock() + LONGEST_WINDOW_SECONDS + this.#retentionSeconds);
  }
}
