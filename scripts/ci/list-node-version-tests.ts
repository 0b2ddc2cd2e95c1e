import { resolve } from 'node:path';
import { nodeVersionTests } from './node-version-tests.js';

// Prints the test files the Node-24 run takes, one per line (`--why` adds the reason); scripts/ci/test-on-lambda-node.sh reads it.
const root = resolve(import.meta.dirname, '../..');
const why = process.argv.includes('--why');
for (const test of nodeVersionTests(root)) console.log(why ? `${test.file}\t${test.why}` : test.file);
