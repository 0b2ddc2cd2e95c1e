/**
 * AWS prices and limits the scale model uses (us-east-1, published list prices and default quotas as of
 * 2026; check the pricing pages before quoting a customer). Kept in one place so a price change is one edit.
 */
export const PRICES = {
  /** Lambda compute per GB-second. */
  lambdaGbSecond: { x86_64: 0.0000166667, arm64: 0.0000133334 },
  /** Lambda, per invocation. */
  lambdaRequest: 0.2 / 1e6,
  /** SQS standard, per request (each 64 KB of a message counts as one). */
  sqsRequest: 0.4 / 1e6,
  /** DynamoDB on-demand, per write / read request unit. */
  dynamoWriteUnit: 0.625 / 1e6,
  dynamoReadUnit: 0.125 / 1e6,
  /** API Gateway HTTP API, per request (submit + polls). */
  httpApiRequest: 1.0 / 1e6,
} as const;

export const LIMITS = {
  /** Lambda vCPU share: one vCPU per 1,769 MB, up to 6 at 10,240 MB. */
  lambdaMbPerVcpu: 1769,
  lambdaMaxVcpus: 6,
  /** Default regional account concurrency (shared by every function; new accounts may start lower). */
  accountConcurrency: 1000,
  /** SQS event source scaling: Lambda adds up to 300 concurrent executions per minute, from 5 pollers. */
  sqsScaleUpPerSecond: 300 / 60,
  sqsInitialConcurrency: 5,
  /** DynamoDB: one partition key takes at most 1,000 WCU/s; a new on-demand table serves 4,000 WCU/s at once. */
  dynamoPartitionWcuPerSecond: 1000,
  dynamoTableInitialWcuPerSecond: 4000,
  /** Lambda synchronous request/response payload. */
  lambdaPayloadBytes: 6 * 1024 * 1024,
  /** DynamoDB item size (documents and results are stored in pages below it). */
  dynamoItemBytes: 400 * 1024,
  /** SQS message size (chunks over it are halved by planChunks). */
  sqsMessageBytes: 1024 * 1024,
} as const;

/** Service defaults the model assumes (README, Configuration). */
export const SERVICE = {
  /** RERANK_DEFAULT_BATCH_SIZE: documents per queued chunk. */
  chunkDocuments: 64,
  /** RERANK_MAX_DOCUMENTS: documents per request; larger sets are submitted as several jobs. */
  maxDocumentsPerJob: 10_000,
  /** Bytes per document (~190 WordPiece tokens of English text, what the bench documents average). */
  documentBytes: 900,
  /**
   * WCU per chunk on its partition, jobs and batches alike (the ChunkLedger): its scores put and its counter's set-add
   * (a set of at most 64 indices). No transaction and no write to the job's META.
   */
  wcuPerChunk: 4,
  /** A request's chunks count on one counter per CHUNKS_PER_COUNTER chunks, each on its own partition, up to LEDGER_SHARDS (batch-table-keys.ts). */
  chunksPerCounter: 64,
  ledgerShards: 16,
  /** SQS requests per chunk: a share of a SendMessageBatch of 10, one receive, one delete. */
  sqsRequestsPerChunk: 2.1,
  /** Seconds between client polls of a running job. */
  pollSeconds: 2,
} as const;

/** Lambda memory sizes the model tabulates (MB): below one vCPU, then one step per vCPU. */
export const MEMORY_SIZES_MB = [1024, 1769, 3538, 5307, 7076, 8845, 10240] as const;
