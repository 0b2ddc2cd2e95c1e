/* global module, process */
// node:http for the bundle (scorer-esbuild.ts, LAZY_BUILTINS): required where the bundled code first evaluates an import of it.
module.exports = process.getBuiltinModule('node:http');
