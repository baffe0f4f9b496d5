import { barePagePath } from '../engine/pages.js'
import { luhnValid } from '../store/card-numbers.js'
import { isSecretName } from '../store/secrets.js'
import { wasCut, type JournalEntry } from '../http/journal.js'
import type { CustomerPages } from '../http/html-page.js'
import { matchingSelfieDataUrl, fixtureImage } from '../identity/fixtures.js'
import type { ActiveScenarios } from '../scenario/index.js'
import type { Flow, Step } from './flow.js'

/**
 * Record to flow: turns a namespace's request journal into a flow whose expectations are the
 * responses seen. Generated values (transaction references, ids, timestamps) become captures or
 * `$any`; the references the client chose become `${ref}-N`, so the flow runs again and again.
 * The journal never holds a full card number, CVV, PIN or OTP: the flow puts back the pack's
 * test values (the card with the same first six and last four, PIN and OTP that pass, or a wrong
 * one where the response shows a wrong one was sent; a voucher of the packs by what the answer shows
 * it paid or why it was refused), and a secret an answer echoed, which the journal kept masked, is
 * not expected. A step whose request or response the journal
 * kept cut (docs/behaviour.md#request-journal) expects only the status: its body was never kept whole. A key
 * is never written: the namespace's secret key an answer names (a reset's `namespace`) is the
 * replay's `${key}`, its public key `${public_key}`, so the flow replays under another key.
 */

/** Fields whose values change from run to run. */
const VOLATILE = new Set([
  'created_at', 'updated_at', 'completed_at', 'processed_at', 'pre_auth_expiry', 'interbank_transaction_id', 'receipt', 'stan',
  'at', 'due', 'ms', 'now', 'now_ms', 'offset_ms', 'uptime_s', 'redirect_url', 'settled_at', 'pending_timers', 'start_date', 'end_date', 'id', 'version',
  'expires_at', 'expiry_date_in_utc', 'transaction_date',
  // a voucher's: the moment of its charge and a year on
  'serial_number', 'expiry_date',
])
/** Values the sandbox generates: captured from the response that first shows them. */
const GENERATED = /^(KPY-[A-Z]{2,3}-[A-Z0-9]+|(VR|BA)-[A-Za-z0-9]{17}|evt_[\w-]+|flt_[\w-]+|AUTH-[A-Z0-9]{12}|DD-[A-Z0-9]{12})$/
/** Values the sandbox generates that only their place says so: a temporary account's number. */
const GENERATED_AT = /(^|\.)bank_account\.account_number$/
/** The call that opens a virtual account, whose number comes from the namespace and the reference (docs/behaviour.md#virtual-accounts). */
const VBA_CREATE = '/merchant/api/v1/virtual-bank-account'
/** A checkout's page (docs/behaviour.md#checkout): its URL carries the checkout's transaction reference. */
const CHECKOUT_URL = /\/checkout\/([^/?#]+)\/pay$/
/** The control call that pays a checkout as a customer would (its card masked in the journal). */
const CHECKOUT_PAY = /^\/_sandbox\/checkouts\/[^/]+\/pay$/

/** Response fields that hold references the client chose (in requests) or the sandbox generated. */
const REFERENCE_KEYS = new Set(['reference', 'payment_reference', 'transaction_reference', 'target_transaction_reference', 'authorization_code', 'account_reference'])

const SELFIE_OTHER = () => `data:image/png;base64,${fixtureImage('other-selfie.png')}`

/**
 * `pages`: the areas' customer pages (`customerPages`): a page's call names no namespace in the
 * flow, and the posts of those that say so (`CustomerPage.replaysAsForm`: the 3DS page, the bank's
 * page of pay with bank) replay as the same form with no key.
 */
export function journalToFlow(entries: JournalEntry[], scenarios: ActiveScenarios, pages: CustomerPages, key: CallKey, name = 'recorded session'): Flow {
  const session = flowSession(scenarios, pages)
  const steps = entries.flatMap((e) => session.exchange(e, key))
  return { name, steps: steps.length ? steps : [NOTHING_RECORDED] }
}

/** The step of a flow in which nothing was recorded: a flow has at least one step. */
export const NOTHING_RECORDED: Step = { name: 'nothing was recorded', advance: 0 }

/** The keys a call was made with: its secret key and the public key beside it (by default the secret's, `sk_` made `pk_`). */
export interface CallKey {
  secret: string
  public?: string
}

/** What a step is made of: a call as the journal keeps it (its request masked). */
export type Exchange = Pick<JournalEntry, 'method' | 'path' | 'query' | 'status' | 'request' | 'response'>

/**
 * A session turned into steps one call at a time, each step using the values the calls before it
 * captured: the journal's export (`journalToFlow`) and the recording through the proxy
 * (docs/behaviour.md#record) both ask it.
 */
export interface FlowSession {
  /**
   * the steps of one call (a checkout's initialization adds the query that captures its
   * transaction reference); `key`: the secret key it was made with, written as the replay's
   */
  exchange(e: Exchange, key?: CallKey): Step[]
  /** a webhook as received: a step that waits for the event and expects its body */
  webhook(body: unknown): Step
}

export function flowSession(scenarios: ActiveScenarios, pages: CustomerPages): FlowSession {
  const vars = new Map<string, string>() // value -> variable name
  let refCount = 0
  let varCount = 0
  /** the entry being turned into a step opened a virtual account: its number is generated */
  let openedAccount = false
  /** the pack's vouchers put back so far, the last one first to be used again */
  const vouchersUsed: string[] = []
  /** The pack's voucher a recorded voucher charge stands for (its PIN was masked), by what its answer shows. */
  const voucherPin = (req: Record<string, any>, response: { message?: string; data?: any } | null, ok: boolean): string => {
    const vouchers = [...scenarios.vouchers.values()]
    const unused = (fits: (v: (typeof vouchers)[number]) => boolean) => vouchers.find((v) => v.outcome === 'success' && !vouchersUsed.includes(v.pin) && fits(v))?.pin
    const message = String(response?.message ?? '')
    const balance = response?.data?.voucher?.balance
    const last = vouchersUsed[vouchersUsed.length - 1]
    let pin: string | undefined
    if (ok) pin = unused((v) => v.value === balance)
    else if (/already been used/.test(message)) pin = last ?? vouchers.find((v) => v.outcome === 'failed')?.pin
    else if (/pin you have entered is invalid/.test(message)) return '0000000000000000'
    else if (/exceeds the required amount/.test(message)) pin = unused((v) => v.value > Number(req.amount))
    else pin = last ?? unused(() => true)
    if (pin && ok) vouchersUsed.push(pin)
    return pin ?? '0000000000000000'
  }
  /** the keys the calls were made with, each as the replay's variable (`${key}`, `${public_key}`) */
  const keys = new Map<string, string>()
  const knowKey = (key: CallKey | undefined): void => {
    if (!key?.secret || keys.has(key.secret)) return
    keys.set(key.secret, '${key}')
    const pk = key.public ?? (key.secret.startsWith('sk_') ? `pk_${key.secret.slice(3)}` : undefined)
    if (pk) keys.set(pk, '${public_key}')
  }
  /** A string with every key in it written as the replay's. */
  const withoutKeys = (s: string): string => {
    let out = s
    for (const [key, v] of keys) if (out.includes(key)) out = out.split(key).join(v)
    return out
  }

  /** A client-chosen reference seen in a request becomes ${ref}-N (stable across the flow). */
  const clientRef = (value: string): string => {
    const known = vars.get(value)
    if (known) return known === 'ref' ? '${ref}' : `\${${known}}`
    refCount++
    const expr = `\${ref}-${refCount}`
    vars.set(value, `__expr:${expr}`)
    return expr
  }
  const sub = (value: string): string | undefined => {
    const v = vars.get(value)
    if (!v) return undefined
    return v.startsWith('__expr:') ? v.slice(7) : `\${${v}}`
  }
  /** Rewrites a string that appears in a request: known values become their variable. */
  const rewriteString = (s: string): string => {
    const whole = sub(s)
    if (whole) return whole
    let out = withoutKeys(s)
    for (const [value, v] of vars) {
      if (value.length >= 6 && out.includes(value)) out = out.split(value).join(v.startsWith('__expr:') ? v.slice(7) : `\${${v}}`)
    }
    return out
  }
  /** Rewrites a string that appears in a response: known values within it become their variable. */
  const knownWithin = (s: string): string => {
    let out = withoutKeys(s)
    for (const [value, v] of vars) {
      if (value.length >= 10 && GENERATED.test(value) && out.includes(value)) out = out.split(value).join(`\${${v}}`)
    }
    return out
  }
  const rewriteRequest = (value: unknown, key = ''): unknown => {
    if (typeof value === 'string') {
      if (REFERENCE_KEYS.has(key) && !GENERATED.test(value) && !sub(value)) return clientRef(value)
      return rewriteString(value)
    }
    if (Array.isArray(value)) return value.map((v) => rewriteRequest(v))
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteRequest(v, k)]))
    return value
  }
  const rewriteExpect = (value: unknown, key = '', saves: Record<string, string> = {}, path = ''): unknown => {
    // a secret the answer echoed was kept masked: the replay's is its own
    if (VOLATILE.has(key) || (typeof value === 'string' && /^\*+$/.test(value) && isSecretName(key))) return '$any'
    if (typeof value === 'string') {
      const known = sub(value)
      if (known) return known
      // the page's address: its origin is the replay's, its transaction reference captured after it
      if (key === 'checkout_url' && CHECKOUT_URL.test(value)) return { $regex: '/checkout/KPY-PI-[A-Z0-9]+/pay$' }
      if (GENERATED.test(value) || GENERATED_AT.test(path) || (openedAccount && path === 'data.account_number')) {
        const name = `v${++varCount}`
        vars.set(value, name)
        saves[name] = path
        return '$any'
      }
      // a checkout's attempt's payment reference: `<checkout's transaction reference>-<n>`
      return knownWithin(value)
    }
    if (Array.isArray(value)) return value.map((v, i) => rewriteExpect(v, '', saves, `${path}.${i}`))
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteExpect(v, k, saves, path ? `${path}.${k}` : k)]))
    }
    return value
  }

  const exchange = (e: Exchange, callKey?: CallKey): Step[] => {
    knowKey(callKey)
    if (e.method === 'GET' && e.path.startsWith('/_sandbox/')) return []
    const steps: Step[] = []
    const response = e.response as { status?: boolean; message?: string; data?: unknown } | null
    const failed = (text: string) => JSON.stringify(response ?? '').includes(text)
    let body: unknown = e.request ?? undefined
    let encrypt = false
    let headers: Record<string, string> | undefined
    let key: string | null | undefined
    // the customer page the call is to, if any: asked once
    const customerPage = pages(e.path)
    const formPage = customerPage?.replaysAsForm === true
    const req = (body ?? {}) as Record<string, any>
    if (req && typeof req === 'object' && 'decrypted' in req) {
      encrypt = true
      body = restoreCard(req.decrypted, scenarios, failed('Incorrect card PIN'))
    } else if (e.path.endsWith('/charges/card/authorize') && req.authorization) {
      const a = { ...req.authorization }
      if (a.pin !== undefined) a.pin = failed('Incorrect card PIN') ? '0000' : scenarios.settings.pin
      if (a.otp !== undefined) a.otp = failed('The OTP entered is invalid') ? '000000' : scenarios.settings.otp
      body = { ...req, authorization: a }
    } else if (e.path.endsWith('/mobile-money/authorize')) {
      body = { ...req, token: e.status === 400 ? '000000' : scenarios.settings.otp }
    } else if (e.path.endsWith('/charge/voucher') && req.voucher && typeof req.voucher === 'object') {
      body = { ...req, voucher: { ...req.voucher, pin: voucherPin(req, response, e.status === 200) } }
    } else if (e.path.endsWith('/sandbox/authorize-stk')) {
      body = { ...req, pin: failed('The PIN entered is incorrect') ? '0000' : scenarios.settings.pin }
    } else if (e.path.includes('/identities/') && req.validation?.selfie) {
      const matched = (response?.data as { validation?: { selfie?: { match?: boolean } } } | undefined)?.validation?.selfie?.match === true
      body = { ...req, validation: { ...req.validation, selfie: matched ? matchingSelfieDataUrl() : SELFIE_OTHER() } }
    } else if (CHECKOUT_PAY.test(e.path) && req.card) {
      body = restoreCard(req, scenarios, false)
    } else if (formPage) {
      key = null
      headers = { 'content-type': 'application/x-www-form-urlencoded' }
    }
    // with its query: the transactions list of a virtual account is asked by it (docs/behaviour.md#virtual-accounts)
    // a customer page's call names the recorded namespace: the replay's key has its own, and its
    // references are fresh, so the page's path names none (src/engine/pages.ts)
    const path = rewriteString(barePagePath(e.path, customerPage?.prefix) + (e.query ?? ''))
    const request: NonNullable<Step['request']> = {
      method: e.method as NonNullable<Step['request']>['method'],
      path: rewriteRequest(path) as string,
      ...(body !== undefined && body !== null ? { body: rewriteRequest(body) } : {}),
      ...(encrypt ? { encrypt: true } : {}),
      ...(headers ? { headers } : {}),
      ...(key !== undefined ? { key } : {}),
    }
    const saves: Record<string, string> = {}
    openedAccount = e.method === 'POST' && e.path === VBA_CREATE
    const cut = wasCut(e.request) || wasCut(e.response)
    const expectBody = response && !cut ? rewriteExpect(response, '', saves) : undefined
    const step: Step = {
      name: `${e.method} ${e.path}`,
      request,
      expect: { status: e.status, ...(expectBody !== undefined && !formPage ? { body: expectBody } : {}) },
      ...(Object.keys(saves).length ? { save: saves } : {}),
    }
    steps.push(step)
    // a checkout's transaction reference is shown first inside its page's URL: the pay-ins list,
    // read here, captures it (the newest pay-in's pointer; the charge query does not show it), so
    // later calls by it (and by its attempts' references) replay
    const page = e.path === '/merchant/api/v1/charges/initialize' && e.status === 200 ? CHECKOUT_URL.exec(String((response?.data as { checkout_url?: unknown } | undefined)?.checkout_url ?? '')) : null
    const merchantRef = sub(String((response?.data as { reference?: unknown } | undefined)?.reference ?? ''))
    if (page && merchantRef && !vars.has(page[1])) {
      const name = `v${++varCount}`
      vars.set(page[1], name)
      steps.push({
        name: "the checkout's transaction reference (its page's URL carries it)",
        request: { method: 'GET', path: '/merchant/api/v1/pay-ins?limit=1' },
        expect: { status: 200, body: { data: { payins: [{ reference: merchantRef }] } } },
        save: { [name]: 'data.payins.0.pointer' },
      })
    }
    return steps
  }
  const webhook = (body: unknown): Step => {
    const b = (body ?? {}) as { event?: unknown; data?: { reference?: unknown } }
    const reference = typeof b.data?.reference === 'string' ? (sub(b.data.reference) ?? b.data.reference) : undefined
    const saves: Record<string, string> = {}
    const expect = rewriteExpect(body, '', saves)
    return {
      name: `webhook ${typeof b.event === 'string' ? b.event : ''}`.trimEnd(),
      wait_event: {
        ...(reference !== undefined ? { reference } : {}),
        ...(typeof b.event === 'string' ? { event: b.event } : {}),
        expect,
        ...(Object.keys(saves).length ? { save: saves } : {}),
      },
    }
  }
  return { exchange, webhook }
}

/** Puts back a test card for a masked one (first six and last four kept in the journal). */
function restoreCard(decrypted: Record<string, any>, scenarios: ActiveScenarios, wrongPin: boolean): Record<string, unknown> {
  const card = { ...(decrypted.card ?? {}) }
  const masked = String(card.number ?? '')
  const first6 = masked.slice(0, 6)
  const last4 = masked.slice(-4)
  const listed = [...scenarios.cards.values()].find((c) => c.number.length === masked.length && c.number.startsWith(first6) && c.number.endsWith(last4))
  card.number = listed?.number ?? synthesizePan(first6, last4, masked.length)
  card.cvv = listed?.cvv ?? '123'
  if (card.pin !== undefined) card.pin = wrongPin ? '0000' : (listed?.pin ?? scenarios.settings.pin)
  return { ...decrypted, card }
}

/** A Luhn-valid number with these first six and last four digits. */
function synthesizePan(first6: string, last4: string, length: number): string {
  const middleLen = Math.max(0, length - 10)
  for (let d = 0; d < 10 ** Math.min(middleLen, 2); d++) {
    const middle = String(d).padStart(middleLen, '0')
    const pan = `${first6}${middle}${last4}`
    if (luhnValid(pan)) return pan
  }
  return `${first6}${'0'.repeat(middleLen)}${last4}`
}
