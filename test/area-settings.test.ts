import { afterEach, describe, expect, it } from 'vitest'
import { createApp } from '../src/app.js'
import { AREAS } from '../src/areas.js'
import { resolveConfig } from '../src/config.js'
import { closeDeps, createDeps, type Deps } from '../src/deps.js'
import type { Kit } from '../src/engine/kit.js'
import type { AnyArea, Area } from '../src/http/area.js'
import { buildOpenApi } from '../src/openapi.js'
import { ActiveScenarios, DEFAULT_PACK_FILE, PackError, SHARED_RULES, Scenarios, loadPackFile, packRules, packSettings, settingsSchema, validatePack } from '../src/scenario/index.js'
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

describe("the shipped areas' own pack settings", () => {
  const RULES = packRules(AREAS)
  const settingsOf = (key: string) => Object.keys(AREAS.find((a) => a.key === key)!.settings?.fields ?? {})

  it('are declared by the one area that reads each; the shared schema keeps what several read', () => {
    expect(Object.keys(settingsSchema.shape)).toEqual(['pin', 'otp', 'vat_percent', 'fees', 'settlement_delay_hours', 'transfer_delay_seconds', 'opening_balance', 'conversion_rates', 'metadata_underscores', 'profile'])
    expect(settingsOf('payouts')).toEqual(['payout_delay_seconds', 'payout_limits', 'payout_multiples', 'payout_availability'])
    expect(settingsOf('refunds')).toEqual(['refund_delay_seconds'])
    expect(settingsOf('chargebacks')).toEqual(['chargeback_deadline_hours', 'chargeback_decision_hours', 'chargeback_decision'])
    expect(settingsOf('cards')).toEqual(['pre_auth_validity_hours'])
    expect(settingsOf('mobile money')).toEqual(['stk_delay_seconds', 'otp_attempts'])
    expect(settingsOf('direct debit')).toEqual(['debit_delay_seconds'])
    expect(settingsOf('bank transfer')).toEqual(['transfer_account_minutes', 'transfer_mismatch'])
  })

  it('are shown where they were among the shared ones, default as the shipped pack sets them, and refused by the same paths', () => {
    const shipped = loadPackFile(DEFAULT_PACK_FILE, RULES)
    const view = new ActiveScenarios([shipped], RULES).toJSON().settings
    expect(Object.keys(view)).toEqual(['pin', 'otp', 'vat_percent', 'fees', 'pre_auth_validity_hours', 'settlement_delay_hours', 'stk_delay_seconds', 'otp_attempts', 'debit_delay_seconds', 'transfer_delay_seconds', 'transfer_account_minutes', 'transfer_mismatch', 'opening_balance', 'refund_delay_seconds', 'payout_delay_seconds', 'payout_limits', 'payout_multiples', 'payout_availability', 'conversion_rates', 'chargeback_deadline_hours', 'chargeback_decision_hours', 'chargeback_decision', 'metadata_underscores', 'profile'])
    // an area's defaults are what the shipped pack says, so a pack with no settings of them changes nothing
    for (const [name, value] of Object.entries(RULES.defaults)) expect([name, value]).toEqual([name, (shipped.settings as Record<string, unknown>)[name]])
    expect(thrown(() => validatePack({ settings: { payout_delay_seconds: -1, chargeback_decision: 'maybe', otp_attempts: 0 } }, 'mine.yaml', RULES)).issues).toEqual([
      'settings.otp_attempts: Too small: expected number to be >0',
      'settings.payout_delay_seconds: Too small: expected number to be >=0',
      'settings.chargeback_decision: must be one of "won", "lost"',
    ])
    // a later pack adds to an area's table key by key, as to the shared fees
    const later = validatePack({ settings: { payout_limits: { GHS: { min: 1, max: 2 } } } }, 'pack', RULES)
    expect(Object.keys(new ActiveScenarios([shipped, later], RULES).toJSON().settings.payout_limits as object)).toEqual(['NGN', 'KES', 'ZAR', 'GHS'])
  })

  it("are described in the OpenAPI document's ScenarioPack, a new area's among them", () => {
    const settingsIn = (list: readonly AnyArea[]) => Object.keys((buildOpenApi('test', list) as any).components.schemas.ScenarioPack.properties.settings.properties)
    expect(settingsIn(AREAS)).toEqual(Object.keys(new ActiveScenarios(Scenarios.loadPacks([], { rules: RULES }), RULES).settings))
    expect(settingsIn(areas)).toContain('tip_percent')
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
