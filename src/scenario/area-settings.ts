import { z } from '../zod-messages.js'
import { packSchema, settingsSchema, type Settings } from './schema.js'

/**
 * An area's settings of a scenario pack (`Area.settings`, docs/architecture.md "Areas"): fields
 * under the pack's `settings:`, each with its zod schema, and the value each has when no pack sets
 * it. A pack sets them as it sets the shared ones, refused by the same paths
 * (`settings.<name>: <why>`), and a later pack's value replaces an earlier one's, or, for a field
 * named in `keyed` (a table by currency, by bank), adds to it key by key. `after` names the shared
 * setting they follow where the settings are shown (`GET /_sandbox/scenarios`, the pack's schema);
 * without it they come last.
 */
export interface PackSettings<F extends z.ZodRawShape = z.ZodRawShape> {
  fields: F
  defaults: { [K in keyof F]: z.infer<F[K]> }
  after?: keyof Settings
  keyed?: readonly (keyof F & string)[]
}

/** Where an area's settings are shown and how a later pack adds to them (`PackSettings`). */
interface Placing<F> {
  after?: keyof Settings
  keyed?: readonly (keyof F & string)[]
}

/**
 * An area's settings, declared once, with `of(view)`: their values in the packs in force (the
 * view's merged settings, as they are: reading one costs a property read).
 */
export function packSettings<F extends z.ZodRawShape>(fields: F, defaults: { [K in keyof F]: z.infer<F[K]> }, placing: Placing<F> = {}) {
  return {
    fields,
    defaults,
    ...placing,
    of: (view: { settings: Settings }) => view.settings as unknown as { readonly [K in keyof F]: z.infer<F[K]> },
  } satisfies PackSettings<F> & { of: unknown }
}

/**
 * What a pack may hold under a list of areas: the shared settings (src/scenario/schema.ts) and the
 * areas' own, the pack's schema made of both, the areas' defaults, which the packs merge over
 * (`ActiveScenarios`, src/scenario/index.ts), and the settings a later pack adds to key by key.
 */
export interface PackRules {
  settings: z.ZodType<Settings>
  pack: typeof packSchema
  defaults: Record<string, unknown>
  keyed: readonly string[]
}

/** The shared settings a later pack adds to key by key rather than replaces whole. */
const SHARED_KEYED = ['fees', 'conversion_rates']

/** The rules of the shared settings alone: what a pack is checked with where no areas are known. */
export const SHARED_RULES: PackRules = { settings: settingsSchema, pack: packSchema, defaults: {}, keyed: SHARED_KEYED }

const made = new WeakMap<readonly unknown[], PackRules>()

/**
 * The rules of a pack under these areas' settings, each area's fields placed after the shared
 * setting it names (after those of the areas before it that name the same); an area's setting named
 * as a shared one, or another area's, is refused at wiring.
 */
export function packRules(areas: readonly { key: string; settings?: PackSettings }[]): PackRules {
  const known = made.get(areas)
  if (known) return known
  const own = areas.filter((a) => a.settings)
  if (!own.length) return SHARED_RULES
  const fields: Record<string, z.ZodType> = {}
  const defaults: Record<string, unknown> = {}
  const keyed = [...SHARED_KEYED]
  // the names each shared setting is followed by, in the areas' order
  const following = new Map<string, string[]>()
  for (const a of own) {
    const s = a.settings!
    if (s.after !== undefined && !(s.after in settingsSchema.shape)) throw new Error(`area ${a.key}: its pack settings follow "${String(s.after)}", which is no shared setting`)
    for (const [name, schema] of Object.entries(s.fields)) {
      if (name in settingsSchema.shape || name in fields) throw new Error(`area ${a.key}: the pack setting "${name}" is already declared`)
      fields[name] = schema as z.ZodType
      defaults[name] = s.defaults[name]
      const at = (s.after as string | undefined) ?? ''
      following.set(at, [...(following.get(at) ?? []), name])
    }
    keyed.push(...(s.keyed ?? []))
  }
  const shape: Record<string, z.ZodType> = {}
  for (const [name, schema] of Object.entries(settingsSchema.shape)) {
    shape[name] = schema
    for (const f of following.get(name) ?? []) shape[f] = fields[f]
  }
  for (const f of following.get('') ?? []) shape[f] = fields[f]
  const settings = z.object(shape).strict()
  const pack = packSchema.extend({ settings: settings.partial().extend({ fees: settingsSchema.shape.fees.partial().optional() }).optional() }).strict()
  const rules: PackRules = { settings: settings as unknown as z.ZodType<Settings>, pack: pack as unknown as typeof packSchema, defaults, keyed }
  made.set(areas, rules)
  return rules
}
