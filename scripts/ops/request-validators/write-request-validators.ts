/**
 * `npm run validators`: writes shared/dialects/request-validators.generated.ts, every dialect's request schema compiled
 * by ajv ahead of time, so a cold start validates its first request without compiling (run it after changing a schema;
 * test/unit/dialects/request-validators-fresh.test.ts fails until then).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { REQUEST_VALIDATORS_FILE, requestValidatorsCode } from './request-validators-code.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
writeFileSync(path.join(root, REQUEST_VALIDATORS_FILE), requestValidatorsCode());
console.error(`wrote ${REQUEST_VALIDATORS_FILE}`);
