import { spawnSync } from 'node:child_process';
import path from 'node:path';

export type CfnLintResult = { readonly status: number | null; readonly output: string } | 'not-installed';

/** cfn-lint on a synthesized template (W3005 ignored: CDK writes redundant DependsOn); console script or python3 module. */
export function cfnLint(outdir: string, stackName: string): CfnLintResult {
  const args = ['--ignore-checks', 'W3005', '--', path.join(outdir, `${stackName}.template.json`)];
  let lint = spawnSync('cfn-lint', args, { encoding: 'utf8', timeout: 200_000 });
  if ((lint.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    // No console script on PATH: the same linter through python3, when its package is installed.
    const viaPython = 'import sys; from cfnlint.runner import main; sys.argv[0] = "cfn-lint"; sys.exit(main())';
    lint = spawnSync('python3', ['-c', viaPython, ...args], { encoding: 'utf8', timeout: 200_000 });
    if (lint.error || /No module named '?cfnlint/.test(lint.stderr)) {
      // CI must lint; a developer machine without cfn-lint only skips (pip install cfn-lint to run it).
      if (process.env['CI'] === 'true') throw new Error('cfn-lint is not installed; CI must run it (pip install cfn-lint)');
      return 'not-installed';
    }
  }
  return { status: lint.status, output: `${lint.stdout}\n${lint.stderr}` };
}
