export {
  createStoredAnalysis,
  digestOf,
  type CombineSides,
  type DenseSide,
  type LexicalSide,
  type StoredAnalysis,
} from './stored-analysis.js';
export { shardCosines } from './dense-shard.js';
export { analyseLexicalShard, lexicalShardFeatures } from './lexical-shard.js';
