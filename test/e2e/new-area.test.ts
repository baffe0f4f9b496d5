import { execFile, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { api, spawnUntilListening, type RunningCli } from './process.js'

/**
 * Adding an area is one folder and one line in src/areas.ts (docs/architecture.md, "Areas"),
 * whatever it brings: here in a copy of the tree, a new area with a dashboard panel, a test value
 * and a pack setting, built, then seen through the copy's own architecture test, `sandbox magic`,
 * the test-value page's script, and a sandbox started from the copy (its dashboard, its packs).
 */

const ROOT = resolve(import.meta.dirname, '..', '..')
const run = promisify(execFile)

/** The new area, as a newcomer would write it in src/loyalty/area.ts. */
const LOYALTY_AREA = `import type { Kit } from '../engine/kit.js'
import type { Area } from '../http/area.js'
import { packSettings } from '../scenario/index.js'
import { markdownTable, textTable } from '../scenario/test-value-text.js'
import { z } from '../zod-messages.js'

/** The code a customer redeems for loyalty points: a pack setting, 4 digits. */
const settings = packSettings({ loyalty_code: z.string().regex(/^\\d{4}$/, 'must be 4 digits') }, { loyalty_code: '7777' })

export const loyaltyArea: Area<{ loyalty: { code(ns: string): string } }, Kit> = {
  key: 'loyalty',
  settings,
  build: ({ scenarios }) => ({ loyalty: { code: (ns) => settings.of(scenarios.forNs(ns)).loyalty_code } }),
  routes: [],
  panels: [{ id: 'loyalty', title: 'Loyalty points', jump: 'Loyalty', place: 105, body: (s, ns) => \`Redeem code \${s.loyalty.code(ns)} for points.\` }],
  testValues: {
    place: 145,
    text: (v) => '\\nLoyalty points\\n' + textTable(['code', 'outcome'], [[settings.of(v).loyalty_code, 'points earned']]),
    page: { title: 'Loyalty points', body: (v) => markdownTable(['code', 'outcome'], [['\`' + settings.of(v).loyalty_code + '\`', 'points earned']]) + '\\n' },
  },
}
`

let clone: string
const running: RunningCli[] = []

beforeAll(async () => {
  clone = mkdtempSync(join(tmpdir(), 'new-area-'))
  for (const part of ['src', 'scripts', 'docs', 'scenarios', 'fixtures', 'bin', 'package.json', 'tsconfig.json', 'README.md', 'test/architecture.test.ts']) cpSync(join(ROOT, part), join(clone, part), { recursive: true })
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'))
  // the folder
  mkdirSync(join(clone, 'src/loyalty'))
  writeFileSync(join(clone, 'src/loyalty/area.ts'), LOYALTY_AREA)
  // and the line (with its import), after the areas whose services it could name
  const areas = readFileSync(join(clone, 'src/areas.ts'), 'utf8')
  writeFileSync(
    join(clone, 'src/areas.ts'),
    `import { loyaltyArea } from './loyalty/area.js'\n` + areas.replace('  transactionsArea,\n', '  transactionsArea,\n  loyaltyArea,\n'),
  )
  await run(process.execPath, [join(clone, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: clone })
  await run(process.execPath, ['scripts/copy-assets.mjs'], { cwd: clone })
}, 120_000)

afterEach(() => {
  for (const cli of running.splice(0)) cli.child.kill()
})

afterAll(() => rmSync(clone, { recursive: true, force: true }))

const cloneCli = (args: string[]) => run(process.execPath, [join(clone, 'bin/sandbox.js'), ...args], { cwd: clone })

describe('a new area: one folder and one line', () => {
  it("passes the copy's architecture test, with no row of the layer table for its folder", async () => {
    expect(readFileSync(join(clone, 'docs/architecture.md'), 'utf8')).not.toContain('src/loyalty/')
    // a failing test would end the run with a code other than 0, which rejects
    const { stdout } = await run(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'test/architecture.test.ts', '--root', clone], { cwd: clone, env: { ...process.env, NO_COLOR: '1' } })
    expect(stdout).toMatch(/Tests +\d+ passed/)
  }, 60_000)

  it('lists its test value in sandbox magic and on the test-value page, from its setting', async () => {
    const magic = (await cloneCli(['magic'])).stdout
    expect(magic).toContain('\nLoyalty points\n')
    expect(magic).toMatch(/\n7777 +points earned\n/)
    const pack = join(clone, 'loyalty.yaml')
    writeFileSync(pack, 'settings:\n  loyalty_code: "4321"\n')
    expect((await cloneCli(['magic', '--scenarios', pack])).stdout).toMatch(/\n4321 +points earned\n/)
    expect(JSON.parse((await cloneCli(['magic', '--json'])).stdout).settings.loyalty_code).toBe('7777')
    const page = (await run(process.execPath, ['scripts/test-values.mjs'], { cwd: clone })).stdout
    expect(page).toContain('[Loyalty points](#loyalty-points)')
    expect(page).toContain('\n## Loyalty points\n\n| code | outcome |\n|---|---|\n| `7777` | points earned |\n')
  })

  it("shows its panel on the dashboard, and takes its setting in a pack, refusing a bad one by the setting's path", async () => {
    const pack = join(clone, 'start.yaml')
    writeFileSync(pack, 'settings:\n  loyalty_code: "4321"\n')
    const cli = await spawnUntilListening('sandbox', process.execPath, [join(clone, 'bin/sandbox.js'), 'start', '--port', '0', '--scenarios', pack], {}, /paysandbox listening on (http:\/\/\S+)/)
    running.push(cli)
    const key = 'sk_test_loyalty'
    expect((await api(cli.url, key, 'GET', '/_sandbox/scenarios')).body.data.settings.loyalty_code).toBe('4321')
    const dashboard = async () => (await fetch(`${cli.url}/_sandbox/ui?ns=${key}`)).text()
    let page = await dashboard()
    expect(page).toContain('<h2 id="h-loyalty">Loyalty points</h2>')
    expect(page).toContain('<a href="#h-loyalty">Loyalty</a>')
    expect(page).toContain('Redeem code 4321 for points.')
    // at its place: after the identity checks (100), before the events (110)
    expect(page.indexOf('id="h-identity"')).toBeLessThan(page.indexOf('id="h-loyalty"'))
    expect(page.indexOf('id="h-loyalty"')).toBeLessThan(page.indexOf('id="h-events"'))
    // a pack of the namespace's own: refused by the setting's path, then taken
    const refused = await api(cli.url, key, 'POST', '/_sandbox/scenarios', { settings: { loyalty_code: '12' } })
    expect(refused.status).toBe(422)
    expect(refused.body).toMatchObject({ status: false, message: 'Invalid request data', data: { 'settings.loyalty_code': { message: 'settings.loyalty_code must be 4 digits' } } })
    expect((await api(cli.url, key, 'POST', '/_sandbox/scenarios', { settings: { loyalty_code: '2468' } })).status).toBe(200)
    page = await dashboard()
    expect(page).toContain('Redeem code 2468 for points.')
    // the shared settings are refused as before
    expect((await api(cli.url, key, 'POST', '/_sandbox/scenarios', { settings: { pin: '12' } })).body.data).toEqual({ 'settings.pin': { message: 'settings.pin must be 4 digits' } })
  })

  it('refuses at start a pack file whose setting is bad, naming the file and the path', async () => {
    const pack = join(clone, 'bad.yaml')
    writeFileSync(pack, 'settings:\n  loyalty_code: "nope"\n')
    const child = spawn(process.execPath, [join(clone, 'bin/sandbox.js'), 'start', '--port', '0', '--scenarios', pack], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const code = await new Promise<number | null>((done) => child.on('exit', done))
    expect(code).toBe(2)
    expect(stderr).toContain(pack)
    expect(stderr).toContain('settings.loyalty_code: must be 4 digits')
  })
})
