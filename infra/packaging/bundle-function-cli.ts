/**
 * `tsx infra/packaging/bundle-function-cli.ts <checkout> <entry> <outfile>`: bundles one entry of `checkout` with the
 * scoring functions' esbuild options (the NodejsFunction's and the image's), without synthesizing the stack, and
 * prints {"outfile", "nodeOptions"} as one JSON line: the bundle and NODE_OPTIONS a deployment runs. For tools outside
 * infra/ (the cold-start bench), which run it as a process rather than importing the CDK side.
 */
import path from 'node:path';
import { build } from 'esbuild';
import { SCORER_NODE_OPTIONS, scorerEsbuildOptions } from './scorer-esbuild.js';

const [checkout, entry, outfile] = process.argv.slice(2);
if (checkout === undefined || entry === undefined || outfile === undefined) {
  console.error('usage: tsx infra/packaging/bundle-function-cli.ts <checkout> <entry> <outfile>');
  process.exit(2);
}
const root = path.resolve(checkout);
await build({ ...scorerEsbuildOptions(path.resolve(root, entry), path.resolve(root, outfile)), absWorkingDir: root });
console.log(JSON.stringify({ outfile: path.resolve(root, outfile), nodeOptions: SCORER_NODE_OPTIONS }));
