#!/usr/bin/env bash
# Runs the vitest suite again on the Node major the Lambda functions run (nodejs24.x), with a Node binary
# from the npm registry (the node-linux-<arch> package, no install script), kept in .tmp/ (git-ignored).
# Typecheck and lint are not repeated: they do not depend on the runtime.
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
echo "vitest on Node $("$node_bin" --version) (the functions' runtime)"
"$node_bin" node_modules/vitest/vitest.mjs run "$@"
