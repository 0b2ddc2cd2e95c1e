import {
  BatchGetItemCommand,
  QueryCommand,
  type AttributeValue,
  type DynamoDBClient,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb';

export type Item = Record<string, AttributeValue>;

/** Every item a Query matches, page by page: one page of items in memory at a time. */
export async function* queryItems(client: DynamoDBClient, input: QueryCommandInput): AsyncGenerator<Item> {
  let startKey: Item | undefined;
  do {
    const page = await client.send(new QueryCommand({ ...input, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }));
    yield* page.Items ?? [];
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** BatchGetItem takes at most this many keys. */
const BATCH_GET_KEYS = 100;

/**
 * The items of `keys` on `table` (strongly consistent), 100 keys a call; keys DynamoDB leaves unprocessed are asked for
 * again after a growing pause. Absent items are simply not yielded.
 */
export async function* batchGetItems(client: DynamoDBClient, table: string, keys: readonly Item[]): AsyncGenerator<Item> {
  for (let from = 0; from < keys.length; from += BATCH_GET_KEYS) {
    let pending = keys.slice(from, from + BATCH_GET_KEYS);
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 10 * 2 ** attempt)));
      const got = await client.send(new BatchGetItemCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }));
      yield* got.Responses?.[table] ?? [];
      pending = got.UnprocessedKeys?.[table]?.Keys ?? [];
    }
  }
}

/**
 * Merges streams that are each sorted by `keyOf` into one sorted stream, holding one item per stream: the
 * shards of a batch, each in line order, read back as one stream in line order.
 */
export async function* mergeSorted<T>(streams: readonly AsyncIterable<T>[], keyOf: (item: T) => number): AsyncGenerator<T> {
  const iterators = streams.map((stream) => stream[Symbol.asyncIterator]());
  const heads = await Promise.all(iterators.map((it) => it.next()));
  for (;;) {
    let best = -1;
    heads.forEach((head, i) => {
      if (!head.done && (best < 0 || keyOf(head.value) < keyOf((heads[best] as IteratorYieldResult<T>).value))) best = i;
    });
    if (best < 0) return;
    yield (heads[best] as IteratorYieldResult<T>).value;
    heads[best] = await (iterators[best] as AsyncIterator<T>).next();
  }
}
