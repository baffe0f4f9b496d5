import { z } from '../zod-messages.js'
import { packSchema, settingsSchema, type Settings } from './schema.js'

/**
 * An area's settings of a scenario pack (`Area.settings`, docs/architecture.md "Areas"): fields
 * under the pack's `settings:`, each with its zod schema, and the value each has when no pack sets
 * it. A pack sets them as it sets the shared ones, refused by the same paths
 * (`settings.<name>: <why>`), and a later pack's value replaces an earlier one's.
 */
export interface PackSettings<F extends z.ZodRawShape = z.ZodRawShape> {
  fields: F
  defaults: { [K in keyof F]: z.infer<F[K]> }
}

/** An area's settings, declared once, with `of(view)`: their values in the packs in force. */
export function packSettings<F extends z.ZodRawShape>(fields: F, defaults: { [K in keyof F]: z.infer<F[K]> }) {
  return {
    fields,
    defaults,
    of: (view: { settings: Settings }) => view.settings as unknown as { [K in keyof F]: z.infer<F[K]> },
  } satisfies PackSettings<F> & { of: unknown }
}

/**
 * What a pack may hold under a list of areas: the shared settings (src/scenario/schema.ts) and the
 * areas' own, the pack's schema made of both, and the areas' defaults, which the packs merge over
 * (`ActiveScenarios`, src/scenario/index.ts).
 */
export interface PackRules {
  settings: z.ZodType<Settings>
  pack: typeof packSchema
  defaults: Record<string, unknown>
}

/** The rules of the shared settings alone: what a pack is checked with where no areas are known. */
export const SHARED_RULES: PackRules = { settings: settingsSchema, pack: packSchema, defaults: {} }

const made = new WeakMap<readonly unknown[], PackRules>()

/** The rules of a pack under these areas' settings; an area's setting named as a shared one, or another area's, is refused at wiring. */
export function packRules(areas: readonly { key: string; settings?: PackSettings }[]): PackRules {
  const known = made.get(areas)
  if (known) return known
  const own = areas.filter((a) => a.settings)
  if (!own.length) return SHARED_RULES
  const fields: Record<string, z.ZodType> = {}
  const defaults: Record<string, unknown> = {}
  for (const a of own) {
    for (const [name, schema] of Object.entries(a.settings!.fields)) {
      if (name in settingsSchema.shape || name in fields) throw new Error(`area ${a.key}: the pack setting "${name}" is already declared`)
      fields[name] = schema as z.ZodType
      defaults[name] = a.settings!.defaults[name]
    }
  }
  const settings = settingsSchema.extend(fields).strict()
  const pack = packSchema.extend({ settings: settings.partial().extend({ fees: settingsSchema.shape.fees.partial().optional() }).optional() }).strict()
  const rules: PackRules = { settings: settings as unknown as z.ZodType<Settings>, pack: pack as unknown as typeof packSchema, defaults }
  made.set(areas, rules)
  return rules
}
