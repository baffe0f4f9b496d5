import { afterEach, describe, expect, it } from 'vitest'
import { createApp } from '../src/app.js'
import { AREAS } from '../src/areas.js'
import { resolveConfig } from '../src/config.js'
import { closeDeps, createDeps, type Deps } from '../src/deps.js'
import type { Kit } from '../src/engine/kit.js'
import type { AnyArea, Area } from '../src/http/area.js'
import { ActiveScenarios, PackError, SHARED_RULES, Scenarios, packRules, packSettings, validatePack } from '../src/scenario/index.js'
import { testValuesText } from '../src/test-values.js'
import { z } from '../src/zod-messages.js'
import { SECRET } from './helpers/sandbox.js'

/**
 * What an area declares besides its routes (docs/architecture.md, "Areas"), in the process: its
 * pack settings joined to the shared ones where the areas are known, its panel placed among the
 * dashboard's own, its test value among sandbox magic's. test/e2e/new-area.test.ts adds such an
 * area to a copy of the tree and builds it.
 */

const tipSettings = packSettings({ tip_percent: z.number().min(0, 'must be at least 0').max(50, 'must be at most 50') }, { tip_percent: 10 })

const tipsArea: Area<{ tips: { percent(ns: string): number } }, Kit> = {
  key: 'tips',
  settings: tipSettings,
  build: ({ scenarios }) => ({ tips: { percent: (ns) => tipSettings.of(scenarios.forNs(ns)).tip_percent } }),
  routes: [],
  panels: [{ id: 'tips', title: 'Tips', jump: 'Tips', place: 25, body: (s, ns) => `Tips of ${s.tips.percent(ns)} %` }],
  testValues: { place: 5, text: (v) => `\nTips\n${tipSettings.of(v).tip_percent} % on every charge\n` },
}

const areas = [...AREAS, tipsArea] as AnyArea[]

const thrown = (f: () => unknown) => {
  try {
    f()
  } catch (e) {
    return e as PackError
  }
  throw new Error('not thrown')
}

describe("an area's pack settings", () => {
  it('are refused where no area declares them, by the same path and words as any unknown setting', () => {
    const err = thrown(() => validatePack({ settings: { tip_percent: 5 } }, 'pack'))
    expect(err.issues).toEqual(['settings: unknown field: tip_percent'])
  })

  it('are taken under the rules of the areas that declare them, defaulted, and refused by their path when bad', () => {
    const rules = packRules(areas)
    expect(packRules(areas)).toBe(rules)
    expect(packRules([])).toBe(SHARED_RULES)
    expect(new ActiveScenarios(Scenarios.loadPacks([], { rules }), rules).toJSON().settings).toMatchObject({ tip_percent: 10, pin: '1234' })
    const later = validatePack({ settings: { tip_percent: 15 } }, 'pack', rules)
    expect(new ActiveScenarios([...Scenarios.loadPacks([], { rules }), later], rules).settings).toMatchObject({ tip_percent: 15 })
    expect(thrown(() => validatePack({ settings: { tip_percent: 80 } }, 'mine.yaml', rules)).message).toContain('settings.tip_percent: must be at most 50')
    // the shared settings keep their own refusals
    expect(thrown(() => validatePack({ settings: { pin: '12' } }, 'mine.yaml', rules)).issues).toEqual(['settings.pin: must be 4 digits'])
  })

  it('may not take the name of a shared setting or of another area\'s', () => {
    const clash = { key: 'clash', settings: packSettings({ pin: z.string() }, { pin: '0000' }) }
    expect(() => packRules([clash])).toThrow('area clash: the pack setting "pin" is already declared')
    expect(() => packRules([tipsArea, { key: 'again', settings: tipSettings }])).toThrow('area again: the pack setting "tip_percent" is already declared')
  })
})

describe("an area's panel and test value", () => {
  let deps: Deps | undefined
  afterEach(async () => {
    if (deps) await closeDeps(deps)
    deps = undefined
  })

  it('are shown by place among the dashboard\'s own and sandbox magic\'s, from the namespace\'s packs', async () => {
    deps = (await createDeps(resolveConfig({ port: 0 }, {}), Date.now(), areas)) as unknown as Deps
    const app = createApp(deps)
    const call = (method: string, path: string, body?: unknown) =>
      app.request(path, { method, headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
    expect((await call('POST', '/_sandbox/scenarios', { settings: { tip_percent: 12 } })).status).toBe(200)
    const bad = await (await call('POST', '/_sandbox/scenarios', { settings: { tip_percent: -1 } })).json()
    expect(bad.data).toEqual({ 'settings.tip_percent': { message: 'settings.tip_percent must be at least 0' } })
    const page = await (await app.request(`/_sandbox/ui?ns=${SECRET}`)).text()
    expect(page).toContain('Tips of 12 %')
    // place 25: after the balances (20), before the virtual accounts (30)
    const at = (id: string) => page.indexOf(`id="h-${id}"`)
    expect([at('balances'), at('tips'), at('vba')]).toEqual([...[at('balances'), at('tips'), at('vba')]].sort((a, b) => a - b))
    expect(at('tips')).toBeGreaterThan(0)
    const text = testValuesText(deps.scenarios.forNs(SECRET).toJSON(), areas)
    expect(text).toContain('\nTips\n12 % on every charge\n')
  })
})
