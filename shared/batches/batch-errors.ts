export { IdempotencyKeyReusedError } from '../jobs/idempotency-key.js';
