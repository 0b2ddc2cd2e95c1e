export { InferenceWorkerPool, type BatchFeeds, type BatchOutput, type InferenceWorkerPoolOptions } from './inference-worker-pool.js';
