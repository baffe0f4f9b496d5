import { byChannels, checkoutChannelOf, checkoutChannels, type AnyCheckoutChannel, type FormReader } from '../engine/checkout-channel.js'
import { maskSecrets } from '../http/mask.js'
import { isSecretName } from '../store/secrets.js'
import type { Frozen } from '../store/frozen.js'
import type { Attempt } from './service.js'

/**
 * The hosted page's form posts (docs/behaviour.md#checkout-page): an `action` naming a channel starts
 * paying by it, read by the channel (`read`); any other is a step of the attempt under way, read by
 * its channel (`steps`). Each field is checked with the channel's own formats, so a bad entry is
 * refused with the field's own message before any service is called. The journal keeps a masked
 * copy only.
 */

/** the page's fields, each with the label the customer sees: those the channels declare */
export const fieldLabels = byChannels((channels) => Object.assign({}, ...channels.map((ch) => ch.labels)) as Readonly<Record<string, string>>)

/** the page's field a service's field error is about (docs/api.md's field names), as the channels declare */
export const serviceFields = byChannels((channels) => Object.assign({}, ...channels.map((ch) => ch.serviceFields ?? {})) as Readonly<Record<string, string>>)

export type FormErrors = Partial<Record<string, string>>

/** What the customer typed, to fill the form again after a refusal: never the CVV, PIN or OTP. */
export type Echo = Partial<Record<string, string>>

/** a post read: the channel it is for, and whether it starts an attempt (else a step of the one under way) */
export interface PageAction {
  action: string
  channel: AnyCheckoutChannel
  starts: boolean
  value: unknown
}

export type Parsed = { ok: true; value: PageAction; echo: Echo } | { ok: false; errors: FormErrors; echo: Echo; action: string }

const digitsOnly = (s: string) => s.replace(/[\s-]/g, '')

/** Reads one post of the page's form; `current`: the attempt under way, whose channel reads its steps. */
export function parseAction(form: URLSearchParams, currency: string, current?: Frozen<Attempt>): Parsed {
  const get = (k: string) => (form.get(k) ?? '').trim()
  const action = get('action')
  const errors: FormErrors = {}
  const echo: Echo = {}
  const labels = fieldLabels()
  const reader: FormReader = {
    get,
    need(k, re, message, digits) {
      const v = digits ? digitsOnly(get(k)) : get(k)
      if (!v) errors[k] = `${labels[k] ?? k} is required`
      else if (!re.test(v)) errors[k] = `${labels[k] ?? k} ${message}`
      return v
    },
    echo: (k) => void (echo[k] = get(k)),
    refuse: (k, message) => void (errors[k] = message),
    refused: (k) => errors[k] !== undefined,
  }
  let value: PageAction | undefined
  const starting = checkoutChannelOf(action)
  if (starting) {
    value = { action, channel: starting, starts: true, value: starting.read(reader, currency) }
  } else {
    const own = current ? checkoutChannelOf(current.kind) : undefined
    const channel = own && Object.hasOwn(own.steps, action) ? own : checkoutChannels().find((ch) => Object.hasOwn(ch.steps, action))
    if (channel) value = { action, channel, starts: false, value: channel.steps[action](reader) }
    else errors.form = 'Unknown action: reload the page and try again'
  }
  if (Object.keys(errors).length || !value) return { ok: false, errors, echo, action }
  return { ok: true, value, echo }
}

/**
 * What the journal keeps of a post (docs/behaviour.md#checkout-page): the action and its fields through
 * the journal's masker (src/http/mask.ts: a card number, in `card_number` or any other field, as
 * its first six and last four digits), a field the store's rule calls a secret's (`cvv`, `pin`,
 * `otp`: src/store/secrets.ts) as `***` whatever its length.
 */
export function journalNote(form: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of form) out[k] = isSecretName(k) ? '***' : v
  return maskSecrets(out) as Record<string, unknown>
}
