import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expandFlowPaths } from '../../src/replay/cli.js'
import { KNOWN_DIFFERENCES, startStandIn, type StandIn } from '../helpers/stand-in.js'
import { tempFile } from '../helpers/sandbox.js'
import { runCli, startCli, type RunningCli } from './process.js'
import { run } from './reach.js'

/** `sandbox verify` (docs/behaviour.md#verify) as a process, against a sandbox and against a stand-in for the live service. */

interface JsonReport {
  flows: number
  steps: number
  skipped: { flow: string; step: string; reason: string }[]
  differences: { flow: string; step: string; path: string; expected: unknown; got: unknown }[]
}

let standIn: StandIn
let sandbox: RunningCli
beforeAll(async () => {
  ;[standIn, sandbox] = await Promise.all([startStandIn(), startCli([])])
})
afterAll(async () => {
  sandbox.child.kill()
  await Promise.all([standIn.close(), sandbox.exited])
})

const liveEnv = () => ({
  NODE_EXTRA_CA_CERTS: standIn.caPath,
  KORAPAY_SECRET_KEY: standIn.keys.secretKey,
  KORAPAY_PUBLIC_KEY: standIn.keys.publicKey,
  KORAPAY_ENCRYPTION_KEY: standIn.keys.encryptionKey,
})

/** how many flows scenarios/flows ships */
const SHIPPED = expandFlowPaths(['scenarios/flows']).length

describe('sandbox verify', () => {
  it('finds no difference between the shipped flows and an in-process sandbox (exit 0)', async () => {
    const r = await runCli(['verify', 'scenarios/flows'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^${SHIPPED} flows, \\d+ steps checked: no difference\n$`))
  })

  it('finds none against a running sandbox, step for step against the in-process one', async () => {
    const r = await runCli(['verify', 'scenarios/flows', '--against', sandbox.url, '--format', 'json'])
    expect(r.code, r.stderr).toBe(0)
    const report = JSON.parse(r.stdout) as JsonReport
    expect(report.differences).toEqual([])
    expect(report.skipped).toEqual([])
    expect(report.flows).toBe(SHIPPED)
  })

  it('finds exactly the known differences of the stand-in for the live service, nothing more, and skips what only a sandbox can do', async () => {
    const r = await runCli(['verify', 'scenarios/flows', '--against', standIn.url, '--format', 'json'], undefined, liveEnv())
    expect(r.stderr).toBe('')
    expect(r.code).toBe(1)
    const report = JSON.parse(r.stdout) as JsonReport
    const unexplained = report.differences.filter((d) => !KNOWN_DIFFERENCES.some((k) => k.explains(d)))
    expect(unexplained).toEqual([])
    for (const k of KNOWN_DIFFERENCES) expect(report.differences.some((d) => k.explains(d)), k.what).toBe(true)
    expect(report.steps).toBeGreaterThan(100)
    expect(report.skipped.length).toBeGreaterThan(0)
    for (const s of report.skipped) expect(s.reason).toMatch(/only a sandbox|live: false|which a step not run/)
    expect(report.skipped.some((s) => s.flow.endsWith('card-3ds.yaml') && s.step === '3. the cardholder approves')).toBe(true)
  })

  it('writes one line per difference naming the flow, the step, the path and both values', async () => {
    const r = await runCli(['verify', 'scenarios/flows/card-refusals.yaml', 'scenarios/flows/card-pin-otp.yaml', '--against', standIn.url], undefined, liveEnv())
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('scenarios/flows/card-refusals.yaml  step 6. authorize an unknown transaction  (status): expected 404, got 400\n')
    expect(r.stdout).toContain('scenarios/flows/card-pin-otp.yaml  step 3. resend the OTP  message: expected "Otp sent successfully", got "OTP sent"\n')
    expect(r.stdout).toMatch(/\n2 flows, \d+ steps checked: \d+ differences\n$/)
  })

  it('writes a JUnit report a CI can read: a testcase per step, failed or skipped', async () => {
    const out = tempFile('verify.xml')
    const r = await runCli(['verify', 'scenarios/flows/card-3ds.yaml', 'scenarios/flows/card-refusals.yaml', '--against', standIn.url, '--format', 'junit', '--output', out], undefined, liveEnv())
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/differences\n$/)
    const parsed = await run('python3', ['-c', 'import sys, xml.etree.ElementTree as E; t = E.parse(sys.argv[1]); r = t.getroot(); print(r.get("tests"), r.get("failures"), r.get("skipped"), len(r.findall(".//testcase")), len(r.findall(".//failure")), len(r.findall(".//skipped")))', out])
    expect(parsed.stderr).toBe('')
    const [tests, failures, skipped, cases, failed, skips] = parsed.stdout.trim().split(' ').map(Number)
    expect(cases).toBe(tests)
    expect(failed).toBe(failures)
    expect(skips).toBe(skipped)
    expect(failures).toBeGreaterThan(0)
    expect(skipped).toBeGreaterThan(0)
    expect(readFileSync(out, 'utf8')).toContain('(status): expected 404, got 400')
  })

  it('refuses a live key (exit 2), and asks for the test keys when the target is not a sandbox', async () => {
    const live = await runCli(['verify', 'scenarios/flows/card-pin.yaml', '--against', standIn.url], undefined, { ...liveEnv(), KORAPAY_SECRET_KEY: 'sk_live_0123456789' })
    expect(live.code).toBe(2)
    expect(live.stderr).toBe('sandbox: refusing a live key: verify runs against the test mode only (KORAPAY_SECRET_KEY / KORAPAY_PUBLIC_KEY)\n')
    const none = await runCli(['verify', 'scenarios/flows/card-pin.yaml', '--against', standIn.url], undefined, { NODE_EXTRA_CA_CERTS: standIn.caPath, KORAPAY_SECRET_KEY: '', KORAPAY_ENCRYPTION_KEY: '' })
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('set KORAPAY_SECRET_KEY and KORAPAY_ENCRYPTION_KEY')
  })

  it('answers a bad flow file with exit 2, naming the file', async () => {
    const bad = tempFile('bad-flow.yaml')
    writeFileSync(bad, 'name: bad\nsteps:\n  - advance: 1\n    freeze: true\n')
    const r = await runCli(['verify', bad])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(bad)
  })
})
