import { existsSync, mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { error, exportVariable, info, input, inputLines, mask, saveState, setOutput } from './runner.mjs'
import { ActionError, caBundle, healthy, install, keysOf, optionEnvironment, reportArgs, reportFiles, reportsDir, sandbox, start, stopAndReport, WORKSPACE } from './sandbox.mjs'

/**
 * The action's main step (action.yml, docs/behaviour.md#github-action). `command: start` installs the
 * sandbox, starts it detached, exports how to reach it, replays the `flows` into a JUnit report,
 * and saves what the post step needs to stop it. `command: stop` stops the sandbox an earlier
 * step started and writes its journal, before the workflow's own upload step (a post step runs
 * only after every step of the job).
 */

async function startCommand() {
  const dir = reportsDir(input('reports-dir'))
  const files = reportFiles(dir)
  mkdirSync(dir, { recursive: true })
  // checked now, made when the sandbox stops (a stop step, or the post step)
  const report = reportArgs(input('report'))
  info(`paysandbox: install: ${install(input('install') || 'auto')}`)
  const env = { ...process.env, ...(await optionEnvironment(inputLines)) }
  const running = start(files.pidFile, env)
  // from here a sandbox runs: the post step must find it, whatever fails next
  saveState('pid_file', files.pidFile)
  saveState('url', running.url)
  saveState('journal', files.journal)
  if (report) saveState('report', input('report'))
  await healthy(running.url)
  running.keys = await keysOf(env)
  saveState('secret_key', running.keys.secret)
  // the control token (input `control-token` or the job's variable): the post step and later steps need it beyond loopback
  const controlToken = env.SANDBOX_CONTROL_TOKEN
  if (controlToken) {
    mask(controlToken)
    saveState('control_token', controlToken)
  }

  const exported = {
    SANDBOX_URL: running.url,
    SANDBOX_SECRET_KEY: running.keys.secret,
    SANDBOX_PUBLIC_KEY: running.keys.public,
    SANDBOX_ENCRYPTION_KEY: running.keys.encryption,
    SANDBOX_PID_FILE: files.pidFile,
  }
  if (controlToken) exported.SANDBOX_CONTROL_TOKEN = controlToken
  // a stop step makes the report the start step asked for
  if (report) exported.PAYSANDBOX_REPORT = input('report')
  if (running.https) exported.SANDBOX_HTTPS_URL = running.https
  if (running.proxy) exported.HTTPS_PROXY = running.proxy
  // with tls or proxy: what makes clients trust the sandbox's certificates
  if (running.ca) {
    const bundle = caBundle(running.ca)
    Object.assign(exported, { NODE_EXTRA_CA_CERTS: running.ca, SSL_CERT_FILE: bundle, REQUESTS_CA_BUNDLE: bundle })
  }
  for (const [name, value] of Object.entries(exported)) exportVariable(name, value)
  const flows = inputLines('flows').map((f) => resolve(WORKSPACE, f))
  const outputs = {
    url: running.url,
    'https-url': running.https ?? '',
    'proxy-url': running.proxy ?? '',
    'ca-cert': running.ca ?? '',
    'secret-key': running.keys.secret,
    'public-key': running.keys.public,
    'encryption-key': running.keys.encryption,
    'pid-file': files.pidFile,
    'reports-dir': dir,
    log: files.log,
    journal: files.journal,
    junit: flows.length ? files.junit : '',
  }
  for (const [name, value] of Object.entries(outputs)) setOutput(name, value)
  info(`paysandbox: running at ${running.url} (pid ${running.pid}); SANDBOX_URL and the keys are set for the later steps`)

  if (!flows.length) return
  // the options' variables (encryption key, seed) reach replay as they reached the server: its fresh namespaces get the same encryption key
  const code = sandbox(['replay', ...flows, '--base-url', running.url, '--reporter', 'junit', '--output', files.junit], env)
  if (code === 1) error(`paysandbox: a flow failed (JUnit report: ${files.junit})`)
  else if (code !== 0) error(`paysandbox: the flows could not be run (exit code ${code}; the reason is printed above)`)
}

async function stopCommand() {
  const pidFile = process.env.SANDBOX_PID_FILE
  if (!pidFile || !existsSync(pidFile)) {
    error(`paysandbox: no running sandbox to stop (SANDBOX_PID_FILE is ${pidFile ? `${pidFile}, which is gone` : 'not set: start it with this action first'})`)
    return
  }
  // the pid file is in the reports directory the start step chose
  const dir = dirname(pidFile)
  const { journal } = reportFiles(dir)
  const report = reportArgs(input('report') || process.env.PAYSANDBOX_REPORT)
  const code = await stopAndReport({ pidFile, url: process.env.SANDBOX_URL, secretKey: process.env.SANDBOX_SECRET_KEY, controlToken: process.env.SANDBOX_CONTROL_TOKEN, journal, report })
  setOutput('journal', journal)
  setOutput('reports-dir', dir)
  if (code !== 0) error(`paysandbox: sandbox stop failed with exit code ${code}`)
}

try {
  const command = input('command') || 'start'
  if (command === 'start') await startCommand()
  else if (command === 'stop') await stopCommand()
  else throw new ActionError(`command must be start or stop (got ${command})`)
} catch (e) {
  if (!(e instanceof ActionError)) throw e
  error(`paysandbox: ${e.message}`)
}
