import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { afterEach, describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { OPTIONS, optionName, type AnyOption } from '../../src/config-options.js'
import { FAR_ADDRESS, cardPayload } from '../helpers/sandbox.js'
import { Job, readAction, ROOT } from './action.js'
import { gone } from './process.js'
import { KORAPAY, run, tempCaDir } from './reach.js'

/**
 * The GitHub Action (action.yml, docs/behaviour.md#github-action), its steps run as the runner runs them
 * (test/e2e/action.ts) against the built checkout (install: auto finds dist/ up to date; the
 * install itself is test/slow/action-install.test.ts): real processes, real ports from 0, real files.
 */

const started: number[] = []
afterEach(() => {
  // a failed test must not leave a server behind
  for (const pid of started.splice(0)) if (!gone(pid)) process.kill(pid, 'SIGKILL')
})

const ENC = 'action-encryption-key-0123456789'

const farAddress = FAR_ADDRESS

const FAILING_FLOW = `name: a flow that expects what the sandbox does not answer
steps:
  - name: health
    request: { method: GET, path: /_sandbox/health }
    expect: { status: 201 }
`

describe('the GitHub Action, run as the runner runs it', () => {
  it('starts the sandbox with proxy and TLS, exports how to reach it, replays the flows to JUnit, and its post step stops it and writes the journal', async () => {
    const job = new Job()
    mkdirSync(join(job.workspace, 'flows'))
    writeFileSync(join(job.workspace, 'flows', 'card.yaml'), readFileSync(join(ROOT, 'scenarios/flows/card-no-auth.yaml')))
    writeFileSync(join(job.workspace, 'flows', 'wrong.yaml'), FAILING_FLOW)
    const inputs = {
      port: '0',
      'secret-key': 'sk_test_action',
      'encryption-key': ENC,
      tls: 'true',
      'tls-port': '0',
      proxy: 'true',
      'proxy-port': '0',
      'ca-dir': tempCaDir(),
      flows: 'flows',
      'reports-dir': 'reports',
    }
    const main = await job.step('main', inputs)
    const pidFile = join(job.workspace, 'reports', 'sandbox.pid')
    const { pid } = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number }
    started.push(pid)
    // a failing flow fails the step, and says where its report is
    expect(main.stderr).toBe('')
    expect(main.code).toBe(1)
    expect(main.stdout).toContain(`::error::paysandbox: a flow failed (JUnit report: ${join(job.workspace, 'reports', 'flows.xml')})`)
    expect(main.stdout).toContain('1 passed, 1 failed')
    expect(main.stdout).toContain('install: nothing (dist/ is up to date)')

    const env = job.exported()
    expect(env.SANDBOX_SECRET_KEY).toBe('sk_test_action')
    expect(env.SANDBOX_PUBLIC_KEY).toBe('pk_test_action')
    expect(env.SANDBOX_ENCRYPTION_KEY).toBe(ENC)
    expect(env.SANDBOX_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(env.SANDBOX_HTTPS_URL).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    expect(env.HTTPS_PROXY).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(env.NODE_EXTRA_CA_CERTS).toBe(join(inputs['ca-dir'], 'ca.pem'))
    // the bundle holds the sandbox's CA after the system's, so the later steps still reach real hosts
    expect(env.REQUESTS_CA_BUNDLE).toBe(env.SSL_CERT_FILE)
    const bundle = readFileSync(env.SSL_CERT_FILE, 'utf8')
    expect(bundle.endsWith(readFileSync(env.NODE_EXTRA_CA_CERTS, 'utf8'))).toBe(true)
    expect(bundle.match(/BEGIN CERTIFICATE/g)!.length).toBeGreaterThan(1)
    expect(main.outputs).toMatchObject({
      url: env.SANDBOX_URL,
      'https-url': env.SANDBOX_HTTPS_URL,
      'proxy-url': env.HTTPS_PROXY,
      'ca-cert': env.NODE_EXTRA_CA_CERTS,
      'secret-key': 'sk_test_action',
      'pid-file': pidFile,
      'reports-dir': join(job.workspace, 'reports'),
      journal: join(job.workspace, 'reports', 'journal.json'),
      junit: join(job.workspace, 'reports', 'flows.xml'),
    })
    expect(Object.keys(main.outputs).sort()).toEqual(Object.keys(readAction().outputs).sort())

    // a card charge with the exported keys
    const payload = cardPayload('4084127883172787')
    const res = await fetch(`${env.SANDBOX_URL}/merchant/api/v1/charges/card`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.SANDBOX_SECRET_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ charge_data: encryptChargeData(payload, env.SANDBOX_ENCRYPTION_KEY) }),
    })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { data: { status: string } }).data.status).toBe('success')

    // a later step's clients, with only the exported variables, reach it as https://api.korapay.com
    const query = `${KORAPAY}/charges/${payload.reference}`
    const node = await run(
      process.execPath,
      ['--input-type=module', '-e', `import { EnvHttpProxyAgent, setGlobalDispatcher } from 'undici'
setGlobalDispatcher(new EnvHttpProxyAgent())
const res = await fetch('${query}', { headers: { authorization: 'Bearer ' + process.env.SANDBOX_SECRET_KEY } })
console.log(JSON.stringify((await res.json()).data))`],
      { HTTPS_PROXY: env.HTTPS_PROXY, NODE_EXTRA_CA_CERTS: env.NODE_EXTRA_CA_CERTS, SANDBOX_SECRET_KEY: env.SANDBOX_SECRET_KEY },
    )
    expect(node.stderr).toBe('')
    expect(JSON.parse(node.stdout)).toMatchObject({ reference: payload.reference, status: 'success' })
    const python = await run(
      'python3',
      ['-c', `import json, os, urllib.request
req = urllib.request.Request('${query}', headers={'Authorization': 'Bearer ' + os.environ['SANDBOX_SECRET_KEY']})
print(json.load(urllib.request.urlopen(req))['data']['status'])`],
      { HTTPS_PROXY: env.HTTPS_PROXY, SSL_CERT_FILE: env.SSL_CERT_FILE, SANDBOX_SECRET_KEY: env.SANDBOX_SECRET_KEY },
    )
    expect(python.stderr).toBe('')
    expect(python.stdout.trim()).toBe('success')

    // the flows' report, where announced: the shipped flow passed, the wrong one failed
    const junit = readFileSync(main.outputs.junit, 'utf8')
    expect(junit).toMatch(/<testsuite name="card: success with no authentication" file="[^"]*card\.yaml" tests="3" failures="0"/)
    expect(junit).toMatch(/<testsuite name="a flow that expects what the sandbox does not answer" file="[^"]*wrong\.yaml" tests="1" failures="1"/)
    expect(junit).toContain('<failure message="status: expected 201, got 200">')

    // the job's end: post, with main's state
    expect(main.state).toMatchObject({ pid_file: pidFile, url: env.SANDBOX_URL, secret_key: 'sk_test_action' })
    const post = await job.step('post', inputs, main.state)
    expect(post.stderr).toBe('')
    expect(post.code).toBe(0)
    expect(post.stdout).toContain(`paysandbox stopped (pid ${pid}`)
    expect(gone(pid)).toBe(true)
    expect(existsSync(pidFile)).toBe(false)
    await expect(fetch(`${env.SANDBOX_URL}/_sandbox/health`)).rejects.toThrow()
    const journal = JSON.parse(readFileSync(main.outputs.journal, 'utf8')) as { method: string; path: string; status: number }[]
    expect(journal).toContainEqual(expect.objectContaining({ method: 'POST', path: '/merchant/api/v1/charges/card', status: 200 }))
    expect(readFileSync(main.outputs.log, 'utf8')).toMatch(/paysandbox listening on/)
    // three steps, a CA made, two flows, two client processes: 9-18 s on the shared 2-core machine
  }, 90_000)

  it('a stop step writes the journal before an upload step, and the post step then finds nothing to stop', async () => {
    const job = new Job()
    const main = await job.step('main', { port: '0' })
    expect(main.stderr).toBe('')
    expect(main.code).toBe(0)
    const env = job.exported()
    const { pid } = JSON.parse(readFileSync(env.SANDBOX_PID_FILE, 'utf8')) as { pid: number }
    started.push(pid)
    // the defaults: the CLI's own keys, the reports in sandbox-reports/, no proxy, no flows
    expect(env).toMatchObject({ SANDBOX_SECRET_KEY: 'sk_test_sandbox', SANDBOX_ENCRYPTION_KEY: 'sandbox-encryption-key-012345678', SANDBOX_PID_FILE: join(job.workspace, 'sandbox-reports', 'sandbox.pid') })
    expect(env.HTTPS_PROXY).toBe(undefined)
    expect(env.NODE_EXTRA_CA_CERTS).toBe(undefined)
    expect(main.outputs['ca-cert']).toBe('')
    expect(main.outputs.junit).toBe('')
    expect((await fetch(`${env.SANDBOX_URL}/_sandbox/clock`, { headers: { authorization: `Bearer ${env.SANDBOX_SECRET_KEY}` } })).status).toBe(200)

    const stop = await job.step('main', { command: 'stop' })
    expect(stop.stderr).toBe('')
    expect(stop.code).toBe(0)
    expect(gone(pid)).toBe(true)
    expect(stop.outputs.journal).toBe(main.outputs.journal)
    const journal = JSON.parse(readFileSync(stop.outputs.journal, 'utf8')) as { path: string }[]
    expect(journal.map((e) => e.path)).toEqual(['/_sandbox/clock'])
    // the stop step started nothing: it saved no state, its own post does nothing
    expect(stop.state).toEqual({})

    const post = await job.step('post', {}, main.state)
    expect(post.code).toBe(0)
    expect(post.stdout).toContain('paysandbox: the sandbox was already stopped')
    const stopsPost = await job.step('post', { command: 'stop' }, stop.state)
    expect(stopsPost.code).toBe(0)
    expect(stopsPost.stdout).toContain('paysandbox: this step started no sandbox: nothing to stop')
  }, 60_000)

  it('with a host beyond loopback and a control token, the stop step and the post step read the journal with the token', async () => {
    // the machine must have an address beyond loopback for this to mean anything: no skipping
    expect(farAddress).toBeDefined()
    for (const stopBy of ['stop step', 'post step'] as const) {
      const job = new Job()
      const main = await job.step('main', { port: '0', host: farAddress as string, 'control-token': 'tok-action' })
      expect([main.code, main.stderr]).toEqual([0, ''])
      const env = job.exported()
      const { pid } = JSON.parse(readFileSync(env.SANDBOX_PID_FILE, 'utf8')) as { pid: number }
      started.push(pid)
      // the token is hidden in the log and given to later steps
      expect(main.stdout).toContain('::add-mask::tok-action')
      expect(env.SANDBOX_CONTROL_TOKEN).toBe('tok-action')
      const key = { authorization: `Bearer ${env.SANDBOX_SECRET_KEY}` }
      // from this address the control API wants the token: the journal is not read without it
      expect((await fetch(`${env.SANDBOX_URL}/_sandbox/requests`, { headers: key })).status).toBe(403)
      expect((await fetch(`${env.SANDBOX_URL}/_sandbox/clock`, { headers: { ...key, 'x-sandbox-control-token': 'tok-action' } })).status).toBe(200)
      const stop = stopBy === 'stop step' ? await job.step('main', { command: 'stop' }) : await job.step('post', {}, main.state)
      expect([stop.code, stop.stderr], stop.stdout).toEqual([0, ''])
      expect(stop.stdout).not.toContain('::warning::')
      expect(gone(pid)).toBe(true)
      const journal = JSON.parse(readFileSync(main.outputs.journal, 'utf8')) as { path: string; status: number }[]
      expect(journal.map((e) => [e.path, e.status])).toEqual([['/_sandbox/clock', 200]])
    }
  }, 60_000)

  it('report: the readiness report goes to the step summary when the sandbox stops, and its gate fails the step', async () => {
    // the start step asks for the report with a gate the flow cannot meet; the post step makes it
    const job = new Job()
    const flow = join(ROOT, 'scenarios/flows/card-pin-otp.yaml')
    const main = await job.step('main', { port: '0', flows: flow, report: '--require card.otp,voucher.success --min 0' })
    expect([main.code, main.stderr], main.stdout).toEqual([0, ''])
    const { pid } = JSON.parse(readFileSync(job.exported().SANDBOX_PID_FILE, 'utf8')) as { pid: number }
    started.push(pid)
    expect(main.summary).toBe('')
    const post = await job.step('post', {}, main.state)
    expect(post.code).toBe(1)
    expect(gone(pid)).toBe(true)
    expect(post.summary).toContain('## Can I go live? Outcomes met')
    expect(post.summary).toContain('### Gate failed\n\n- voucher.success: not met (success)\n')
    expect(post.summary).toContain('| `card.otp` | yes |')
    expect(post.stdout).toContain('::error::paysandbox: sandbox report exited with 1: the gate failed:%0A  voucher.success: not met (success)')

    // a stop step makes the report the start step asked for; a gate met passes
    const passing = new Job()
    const started2 = await passing.step('main', { port: '0', flows: flow, report: '--require card.otp,card.pin' })
    expect(started2.code).toBe(0)
    const pid2 = (JSON.parse(readFileSync(passing.exported().SANDBOX_PID_FILE, 'utf8')) as { pid: number }).pid
    started.push(pid2)
    const stop = await passing.step('main', { command: 'stop' })
    expect([stop.code, stop.stderr], stop.stdout).toEqual([0, ''])
    expect(gone(pid2)).toBe(true)
    expect(stop.stdout).toContain("paysandbox: the readiness report is in the job's summary")
    expect(stop.summary).toContain('| `card.pin` | yes |')
    expect(stop.summary).not.toContain('Gate failed')
  }, 60_000)

  it('a bad input fails the step with the sandbox\'s own message, leaves nothing running and saves no state', async () => {
    const job = new Job()
    const main = await job.step('main', { port: '70000' })
    expect(main.code).toBe(1)
    expect(main.stderr).toContain('sandbox: --port must be a whole number from 0 to 65535 (got 70000)')
    expect(main.stdout).toContain('::error::paysandbox: sandbox start --detach failed with exit code 2')
    expect(main.state).toEqual({})
    expect(job.exported()).toEqual({})
    expect(existsSync(join(job.workspace, 'sandbox-reports', 'sandbox.pid'))).toBe(false)

    const command = await job.step('main', { command: 'restart' })
    expect(command.code).toBe(1)
    expect(command.stdout).toContain('::error::paysandbox: command must be start or stop (got restart)')
    const stop = await job.step('main', { command: 'stop' })
    expect(stop.code).toBe(1)
    expect(stop.stdout).toContain('::error::paysandbox: no running sandbox to stop (SANDBOX_PID_FILE is not set: start it with this action first)')
  })

  it('action.yml is generated from the option table: every flag of sandbox start is an input, and the file is what the generator writes', () => {
    const check = spawnSync(process.execPath, [join(ROOT, 'scripts/action-yml.mjs'), '--check'], { encoding: 'utf8' })
    expect(check.stderr).toBe('')
    expect(check.status).toBe(0)
    const action = readAction()
    const flags = (Object.values(OPTIONS) as AnyOption[]).filter((o) => o.flag).map((o) => optionName(o).slice('--'.length))
    expect(Object.keys(action.inputs).sort()).toEqual([...flags, 'command', 'flows', 'install', 'report', 'reports-dir'].sort())
    expect(action.runs).toEqual({ using: 'node20', main: 'action/main.mjs', post: 'action/post.mjs' })
  })
})

describe('examples/github-action.yml', () => {
  it('gives the action only inputs it declares and reads only outputs it sets', () => {
    const workflow = parse(readFileSync(join(ROOT, 'examples/github-action.yml'), 'utf8')) as { jobs: Record<string, { steps: { id?: string; uses?: string; with?: Record<string, unknown> }[] }> }
    const action = readAction()
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps)
    const ours = steps.filter((s) => /^[\w.-]+\/paysandbox@/.test(s.uses ?? ''))
    expect(ours.map((s) => s.with?.command ?? 'start')).toEqual(['start', 'stop'])
    for (const step of ours) for (const name of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs)).toContain(name)
    const text = readFileSync(join(ROOT, 'examples/github-action.yml'), 'utf8')
    const read = [...text.matchAll(/steps\.sandbox\.outputs\.([a-z-]+)/g)].map((m) => m[1])
    expect(read.length).toBeGreaterThan(0)
    for (const name of read) expect(Object.keys(action.outputs)).toContain(name)
  })
})
