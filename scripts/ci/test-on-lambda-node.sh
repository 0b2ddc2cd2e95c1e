#!/usr/bin/env bash
# Runs the vitest suite again on the Node major the Lambda functions run (nodejs24.x), with a Node binary
# from the npm registry (the node-linux-<arch> package, no install script), kept in .tmp/ (git-ignored).
# Typecheck and lint are not repeated: they do not depend on the runtime. Only the tests whose code can differ by Node
# version run again (function code, worker threads, onnxruntime-node, the AWS SDK): scripts/ci/node-version-tests.ts
# picks them from each test file's import graph, so the split follows the code (`--why` prints each file's reason).
# Arguments, if any, replace that selection (e.g. one file).
set -euo pipefail
cd "$(dirname "$0")/../.."
version="$(tr -d '[:space:]' < scripts/ci/lambda-node-version.txt)"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "test-on-lambda-node: no Node binary package for $(uname -m)" >&2; exit 1 ;;
esac
prefix=".tmp/lambda-node-${version}"
node_bin="${prefix}/node_modules/node-linux-${arch}/bin/node"
if [ ! -x "$node_bin" ]; then
  npm install --no-save --no-audit --no-fund --no-package-lock --prefix "$prefix" "node-linux-${arch}@${version}"
fi
if [ "$#" -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(node --import tsx scripts/ci/list-node-version-tests.ts)
fi
echo "vitest on Node $("$node_bin" --version) (the functions' runtime): ${#files[@]} test files whose code can differ by Node version"
"$node_bin" node_modules/vitest/vitest.mjs run "${files[@]}"
