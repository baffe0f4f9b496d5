import { existsSync } from 'node:fs'
import { error, info, state } from './runner.mjs'
import { reportArgs, stopAndReport } from './sandbox.mjs'

/**
 * The action's post step (action.yml, docs/behaviour.md#github-action): at the job's end, stops the sandbox
 * its main step started, unless a `command: stop` step already did, and writes its journal. A use
 * of the action that started nothing (`command: stop`, or a start that failed) saved no state:
 * nothing to do.
 */
const pidFile = state('pid_file')
if (!pidFile) info('paysandbox: this step started no sandbox: nothing to stop')
else if (!existsSync(pidFile)) info(`paysandbox: the sandbox was already stopped (${pidFile} is gone)`)
else {
  const code = await stopAndReport({ pidFile, url: state('url'), secretKey: state('secret_key'), controlToken: state('control_token'), journal: state('journal'), report: reportArgs(state('report')) })
  if (code !== 0) error(`paysandbox: sandbox stop failed with exit code ${code}`)
}
