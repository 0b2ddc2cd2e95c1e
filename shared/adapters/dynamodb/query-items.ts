import { QueryCommand, type AttributeValue, type DynamoDBClient, type QueryCommandInput } from '@aws-sdk/client-dynamodb';

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
