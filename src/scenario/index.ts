import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { DocumentIssues, readDocumentFile } from '../files.js'
import { invalid } from '../errors.js'
import { toMinor } from '../money.js'
import type { z } from 'zod'
import type { Store } from '../store/store.js'
import { copyOf, type Frozen } from '../store/frozen.js'
import type { CollectionSpec } from '../store/collection.js'
import { NUMBER, OBJECT } from '../store/validate.js'
import { SHARED_RULES, type PackRules } from './area-settings.js'
import {
  PACK_LIMITS,
  type AccountScenario,
  type AuthorizationSeed,
  type TransferScenario,
  type PayoutScenario,
  type BankScenario,
  type VoucherScenario,
  type CardScenario,
  type IdentityScenario,
  type Pack,
  type Settings,
  type WalletScenario,
} from './schema.js'

export * from './schema.js'
export { packRules, packSettings, SHARED_RULES, type PackRules, type PackSettings } from './area-settings.js'

/** The shipped default pack. */
export const DEFAULT_PACK_FILE = fileURLToPath(new URL('../../scenarios/default.yaml', import.meta.url))

/**
 * The shipped pack as the build checked it (`scripts/copy-assets.mjs`), beside the built code:
 * parsing its YAML was most of what a first request waited for after the socket opened (yaml's
 * parser, cold, takes longer than the rest of the pack's work; bench/README.md). Run from `src/`
 * there is none, and the YAML is read.
 */
export const BUILT_DEFAULT_PACK_FILE = fileURLToPath(new URL('../default-pack.json', import.meta.url))

/** What the build keeps of a pack: the hash of the YAML text it came from, and the pack as checked. */
interface BuiltPack {
  sha256: string
  pack: Pack
}

const sha256Of = (text: Buffer | string): string => createHash('sha256').update(text).digest('hex')

/** The build's copy of the pack of `yamlFile` (`BuiltPack` as JSON text), checked under `rules` (the areas' settings among them). */
export function buildPack(yamlFile: string, rules: PackRules = SHARED_RULES): string {
  const built: BuiltPack = { sha256: sha256Of(readFileSync(yamlFile)), pack: loadPackFile(yamlFile, rules) }
  return JSON.stringify(built)
}

/**
 * The pack of `yamlFile`, from the build's copy when it was made from the YAML as it reads now
 * (the same hash), else read and checked again: a YAML changed since the build is never answered
 * from a stale copy.
 */
export function loadBuiltPack(yamlFile: string, builtFile: string, rules: PackRules = SHARED_RULES): Pack {
  let built: BuiltPack | undefined
  try {
    built = JSON.parse(readFileSync(builtFile, 'utf8')) as BuiltPack
  } catch {
    // no copy beside the code (run from src/), or not readable: the YAML decides
  }
  if (built && built.sha256 === sha256Of(readFileSync(yamlFile))) return built.pack
  return loadPackFile(yamlFile, rules)
}

/** A scenario pack refused: where it came from and every issue found. */
export class PackError extends DocumentIssues {}

/** "cards.3.number: must be 12-19 digits" for each zod issue. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
}

/** `{"cards.3.number": "must be 12-19 digits"}` from describeIssues' lines: each issue under its entry path. */
function issueFields(issues: readonly string[]): Record<string, string> {
  return Object.fromEntries(issues.map((i) => {
    const at = i.indexOf(': ')
    return [i.slice(0, at), i.slice(at + 2)]
  }))
}

/**
 * Validates a parsed pack under `rules` (the shared settings and the areas' own, src/scenario/area-settings.ts);
 * throws PackError naming the source, the entry path and the reason.
 */
export function validatePack(raw: unknown, source: string, rules: PackRules = SHARED_RULES): Pack {
  // before anything walks it: a document nested thousands deep must be refused, not recursed into
  const deep = tooDeep(raw, PACK_LIMITS.depth)
  if (deep) throw new PackError(source, [`${deep}: must nest at most ${PACK_LIMITS.depth} levels deep`])
  const parsed = rules.pack.safeParse(raw ?? {})
  if (!parsed.success) throw new PackError(source, describeIssues(parsed.error))
  const pack = parsed.data
  // the same key twice in one pack is a mistake worth naming
  const dupes: string[] = []
  const seen = (list: { key: string; path: string }[]) => {
    const m = new Map<string, string>()
    for (const { key, path } of list) {
      if (m.has(key)) dupes.push(`${path}: duplicates ${m.get(key)}`)
      else m.set(key, path)
    }
  }
  seen((pack.cards ?? []).map((c, i) => ({ key: c.number, path: `cards.${i}.number` })))
  seen((pack.wallets ?? []).map((w, i) => ({ key: w.number, path: `wallets.${i}.number` })))
  seen((pack.identities ?? []).map((x, i) => ({ key: `${x.type}:${x.id}`, path: `identities.${i}.id` })))
  seen((pack.accounts ?? []).map((a, i) => ({ key: a.account_number, path: `accounts.${i}.account_number` })))
  seen((pack.authorizations ?? []).map((a, i) => ({ key: a.reference, path: `authorizations.${i}.reference` })))
  seen((pack.transfers ?? []).map((t, i) => ({ key: String(toMinor(t.amount)), path: `transfers.${i}.amount` })))
  seen((pack.payouts ?? []).map((p, i) => ({ key: `${p.bank}:${p.account}`, path: `payouts.${i}.account` })))
  seen((pack.banks ?? []).map((b, i) => ({ key: b.bank_code, path: `banks.${i}.bank_code` })))
  if (dupes.length) throw new PackError(source, dupes)
  return pack
}

/**
 * The path (cut to its first few steps) of a value nested deeper than `max` levels, or undefined:
 * walked with a list of its own, never by recursion, however deep the value goes.
 */
export function tooDeep(value: unknown, max: number): string | undefined {
  const stack: { v: unknown; depth: number; path: string[] }[] = [{ v: value, depth: 1, path: [] }]
  while (stack.length) {
    const { v, depth, path } = stack.pop()!
    if (typeof v !== 'object' || v === null) continue
    if (depth > max) return path.length ? path.slice(0, 4).join('.') + (path.length > 4 ? '...' : '') : '(root)'
    for (const [k, child] of Object.entries(v)) {
      if (typeof child === 'object' && child !== null) stack.push({ v: child, depth: depth + 1, path: path.length < 5 ? [...path, k] : path })
    }
  }
  return undefined
}

/** Reads a YAML or JSON pack file. */
export function loadPackFile(file: string, rules: PackRules = SHARED_RULES): Pack {
  return validatePack(readDocumentFile(file, (why) => new PackError(file, [why.message])), file, rules)
}

/** The end of a card's or wallet's entry in the view: its steps, then its outcome. */
function stepsAndOutcome(x: { steps: string[]; outcome: string; message?: string; label: string }) {
  return { steps: x.steps, outcome: x.outcome, ...(x.message ? { message: x.message } : {}), label: x.label }
}

/** The merged view of packs: later packs win, entry by entry. */
export class ActiveScenarios {
  readonly settings: Settings

  /** whether a metadata key may hold `_`: the pack says so, or the live profile (the live test environment took one; docs/behaviour.md#live-profile, docs/behaviour.md#scenario-packs) */
  get metadataUnderscores(): boolean {
    return this.settings.metadata_underscores || this.settings.profile === 'live'
  }
  readonly cards = new Map<string, CardScenario>()
  readonly wallets = new Map<string, WalletScenario>()
  readonly identities = new Map<string, IdentityScenario>()
  readonly accounts = new Map<string, AccountScenario>()
  readonly authorizations = new Map<string, AuthorizationSeed>()
  /** by the amount in minor units */
  readonly transfers = new Map<number, TransferScenario>()
  /** by `bank:account` (a mobile-money wallet: `operator:number`) */
  readonly payouts = new Map<string, PayoutScenario>()
  /** pay with bank's banks, by bank code */
  readonly banks = new Map<string, BankScenario>()
  /** test vouchers, by PIN */
  readonly vouchers = new Map<string, VoucherScenario>()

  /**
   * `rules`: the settings the areas declare besides the shared ones, and their defaults, under every
   * pack; always given, as the shipped pack sets the areas' settings (`packRules`)
   */
  constructor(packs: Pack[], rules: PackRules) {
    let settings: Record<string, any> = { ...rules.defaults }
    for (const p of packs) {
      if (p.settings) {
        const next: Record<string, any> = { ...settings, ...p.settings }
        // the settings a later pack adds to key by key (`PackRules.keyed`)
        for (const k of rules.keyed) next[k] = { ...settings[k], ...(p.settings as Record<string, any>)[k] }
        settings = next
      }
      for (const c of p.cards ?? []) this.cards.set(c.number, c)
      for (const w of p.wallets ?? []) this.wallets.set(w.number, w)
      for (const x of p.identities ?? []) this.identities.set(`${x.type}:${x.id}`, x)
      for (const a of p.accounts ?? []) this.accounts.set(a.account_number, a)
      for (const a of p.authorizations ?? []) this.authorizations.set(a.reference, a)
      for (const t of p.transfers ?? []) this.transfers.set(toMinor(t.amount), t)
      for (const x of p.payouts ?? []) this.payouts.set(`${x.bank}:${x.account}`, x)
      for (const b of p.banks ?? []) this.banks.set(b.bank_code, b)
      for (const v of p.vouchers ?? []) this.vouchers.set(v.pin, v)
    }
    const parsed = rules.settings.safeParse(settings)
    if (!parsed.success) throw new PackError('scenario packs', describeIssues(parsed.error).map((s) => `settings.${s}`))
    this.settings = parsed.data
  }

  readonly card = (number: string): CardScenario | undefined => this.cards.get(number)
  readonly wallet = (number: string): WalletScenario | undefined => this.wallets.get(number)
  readonly identity = (type: string, id: string): IdentityScenario | undefined => this.identities.get(`${type}:${id}`)
  readonly account = (number: string): AccountScenario | undefined => this.accounts.get(number)
  /** How a bank transfer of this amount (minor units) arrives. */
  readonly transfer = (amountMinor: number): TransferScenario | undefined => this.transfers.get(amountMinor)
  /** What a payout to this bank (or operator) and account does. */
  readonly payout = (bank: string, account: string): PayoutScenario | undefined => this.payouts.get(`${bank}:${account}`)
  /** The bank of pay with bank with this code, if the packs list it. */
  readonly bank = (code: string): BankScenario | undefined => this.banks.get(code)
  /** The test voucher with this PIN, if the packs list it. */
  readonly voucher = (pin: string): VoucherScenario | undefined => this.vouchers.get(pin)

  /** The shape of docs/behaviour.md#packs-and-replay (`GET /_sandbox/scenarios`, `sandbox magic --json`). */
  toJSON() {
    const s = this.settings
    return {
      cards: [...this.cards.values()].map((c) => ({
        number: c.number,
        scheme: c.scheme,
        cvv: c.cvv,
        expiry_month: c.expiry_month,
        expiry_year: c.expiry_year,
        ...(c.steps.includes('PIN') ? { pin: c.pin ?? s.pin } : {}),
        ...(c.steps.includes('OTP') ? { otp: c.otp ?? s.otp } : {}),
        ...(c.chargeback ? { chargeback: true } : {}),
        ...stepsAndOutcome(c),
      })),
      wallets: [...this.wallets.values()].map((w) => ({
        number: w.number,
        currency: w.currency,
        ...(w.steps.includes('OTP') ? { otp: w.otp ?? s.otp } : {}),
        ...(w.steps.includes('STK_PROMPT') ? { pin: w.pin ?? s.pin } : {}),
        ...(w.found === false ? { found: false } : w.name ? { name: w.name } : {}),
        ...stepsAndOutcome(w),
      })),
      identities: [...this.identities.values()].map(({ type, id, found, unavailable, label }) => ({ type, id, found, ...(unavailable ? { unavailable } : {}), label })),
      accounts: [...this.accounts.values()].map(({ account_number, bank_code, outcome, message, label }) => ({
        account_number,
        bank_code,
        outcome,
        ...(message ? { message } : {}),
        label,
      })),
      authorizations: [...this.authorizations.values()].map(({ reference, status, amount, label }) => ({
        reference,
        status,
        amount,
        label,
      })),
      transfers: [...this.transfers.values()].map(({ amount, arrives, after_seconds, label }) => ({ amount, arrives, after_seconds: after_seconds ?? s.transfer_delay_seconds, label })),
      payouts: [...this.payouts.values()].map(({ bank, account, outcome, message, label }) => ({ bank, account, outcome, ...(message ? { message } : {}), label })),
      banks: [...this.banks.values()].map(({ bank_code, currency, name, outcome, message, label }) => ({ bank_code, currency, name, outcome, ...(message ? { message } : {}), label })),
      vouchers: [...this.vouchers.values()].map(({ pin, value, outcome, message, label }) => ({ pin, value, outcome, ...(message ? { message } : {}), label })),
      settings: s,
    }
  }
}

const PACKS = 'packs'

/**
 * The packs added at run time, as a data file must hold them: each checked on open as a pack
 * sent to the control API is (its bounds included, under the areas' `rules`), so a hand-edited
 * file cannot bring in what the API would refuse.
 */
export const packsSpec = (rules: PackRules): CollectionSpec => ({
  name: PACKS,
  fields: { seq: NUMBER, pack: OBJECT },
  // a pack's cards are test cards the sandbox compares with
  asWritten: ['pack'],
  check: (record) => {
    try {
      validatePack(record.pack, 'pack', rules)
      return null
    } catch (e) {
      if (e instanceof PackError) return `field "pack": ${e.issues[0]}`
      throw e
    }
  },
})
let defaultPack: Pack | undefined

/**
 * How packs are loaded: with the shipped pack first (unless `includeDefault: false`), under the
 * areas' `rules`, never the shared ones alone: the shipped pack sets the areas' settings too.
 */
interface PackLoad {
  includeDefault?: boolean
  rules: PackRules
}

/**
 * The packs in force: the shipped default, then `--scenarios` files (validated at start), then
 * per namespace the packs added at run time (`POST /_sandbox/scenarios`), which win over the rest
 * until `DELETE /_sandbox/scenarios` drops them. Added packs live in the store, so they survive a
 * restart with `--data`.
 */
export class Scenarios {
  readonly #base: Pack[]
  readonly #store: Store
  readonly #cache = new Map<string, ActiveScenarios>()
  readonly #rules: PackRules
  readonly baseView: ActiveScenarios

  constructor(base: Pack[], store: Store, rules: PackRules) {
    this.#base = base
    this.#store = store
    this.#rules = rules
    this.baseView = new ActiveScenarios(base, rules)
    // the view is derived from the namespace's packs: read again once a reset or a failed write changed them
    const drop = (ns: string) => void this.#cache.delete(ns)
    store.registerState({ reset: drop, restored: drop })
  }

  /** Loads the default pack plus the given files. Throws PackError on the first bad file. */
  static load(files: string[], store: Store, { includeDefault = true, rules }: PackLoad): Scenarios {
    return new Scenarios(Scenarios.loadPacks(files, { includeDefault, rules }), store, rules)
  }

  /** The default pack and the given files, validated (the merged settings too) under `rules`. */
  static loadPacks(files: string[], { includeDefault = true, rules }: PackLoad): Pack[] {
    // the shipped pack is read once per process, however many sandboxes start
    defaultPack ??= loadBuiltPack(DEFAULT_PACK_FILE, BUILT_DEFAULT_PACK_FILE, rules)
    const packs = [...(includeDefault ? [defaultPack] : []), ...files.map((f) => loadPackFile(f, rules))]
    new ActiveScenarios(packs, rules)
    return packs
  }

  forNs(ns: string): ActiveScenarios {
    let view = this.#cache.get(ns)
    if (!view) {
      try {
        view = this.forRecords(this.#store.col<{ seq: number; pack: Pack }>(ns, PACKS).values())
      } catch (e) {
        // packs added under other packs files (a data file opened, a snapshot restored) that no
        // longer merge with these (a rate table whose round gains, docs/behaviour.md#conversions): every
        // call of the namespace is refused, naming why, until its packs are dropped or it is reset
        if (e instanceof PackError) throw invalid(issueFields(e.issues))
        throw e
      }
      this.#cache.set(ns, view)
    }
    return view
  }

  /**
   * The packs in force over a namespace holding these records of `packs` (a snapshot's, before it
   * is restored: `forNs` once it is); throws PackError when their settings do not merge.
   */
  forRecords(records: Iterable<{ seq: number; pack: Frozen<Pack> }>): ActiveScenarios {
    const added = [...records]
      .sort((a, b) => a.seq - b.seq)
      // a copy of its own: the view keeps what it merges (the stored packs are frozen)
      .map((p) => copyOf<Pack>(p.pack))
    return added.length ? new ActiveScenarios([...this.#base, ...added], this.#rules) : this.baseView
  }

  /**
   * Adds a pack to a namespace (POST /_sandbox/scenarios); a pack that is invalid, or whose
   * settings break the merge, is refused with each issue under its entry path
   * (`{"cards.0.number": "must be 12-19 digits"}`) and changes nothing.
   */
  addPack(ns: string, raw: unknown): ActiveScenarios {
    const col = this.#store.col<{ seq: number; pack: Pack }>(ns, PACKS)
    const seq = col.size + 1
    let pack: Pack, view: ActiveScenarios
    try {
      pack = validatePack(raw, 'pack', this.#rules)
      // build the merged view first: a pack whose settings break the merge changes nothing
      const existing = [...col.values()].sort((a, b) => a.seq - b.seq).map((p) => copyOf<Pack>(p.pack))
      view = new ActiveScenarios([...this.#base, ...existing, pack], this.#rules)
    } catch (e) {
      if (e instanceof PackError) throw invalid(issueFields(e.issues))
      throw e
    }
    col.put(String(seq), { seq, pack })
    this.#cache.set(ns, view)
    return view
  }

  clearPacks(ns: string): void {
    const col = this.#store.col(ns, PACKS)
    for (const key of [...col.entries()].map(([k]) => k)) col.delete(key)
    this.#cache.delete(ns)
  }
}
