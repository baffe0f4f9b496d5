import type { Frozen } from '../store/frozen.js'
import type { Kinds } from '../engine/kinds.js'
import type { Context } from 'hono'
import { formatMoney } from '../money.js'
import { clientOrigin } from '../http/origin.js'
import { returnUrl } from '../engine/charge-query.js'
import { ApiError, ValidationError } from '../errors.js'
import { MSG } from '../messages.js'
import { readForm } from '../http/body.js'
import { noteRequest, type AppEnv } from '../http/context.js'
import type { Namespaces } from '../namespaces.js'
import { checkoutChannelOf } from '../engine/checkout-channel.js'
import { checkoutPagePath, merchantNameOf } from '../engine/pages.js'
import { CHECKOUT_MSG } from './messages.js'
import { fieldLabels, journalNote, parseAction, serviceFields, type Echo, type FormErrors, type PageAction } from './page-form.js'
import { Alert, CancelForm, ChannelChoice, Layout, NotFoundPage, Outcome, type AttemptLine, type Order } from './page-views.js'
import { isCheckoutChannel } from './schemas.js'
import { isOpen, type Attempt, type CheckoutCharge, type CheckoutService } from './service.js'
import { TestValues } from './test-values.js'
import type { Scenarios } from '../scenario/index.js'

/**
 * The hosted checkout page (docs/behaviour.md#checkout-page), at the checkout_url that
 * `charges/initialize` answers: `GET /checkout/:tx/pay` shows the checkout's state (the channel
 * choice, or the step its attempt waits for); the forms post back (`POST /checkout/:page/:tx/pay`
 * with an `action`, `POST /checkout/:page/:tx/cancel`: every link of the page names its namespace
 * by its page id, src/engine/pages.ts) and are answered with a redirect to the page
 * (post-redirect-get), or the page again with what was refused. Once the checkout ends the browser
 * goes to `redirect_url?reference=<merchant reference>`. No key: this is the customer's browser;
 * the transaction reference in the link is the unguessable part. Posts are journaled in the
 * checkout's namespace, the card number masked, CVV, PIN and OTP never kept.
 */


const STATUS_WORD: Record<string, string> = { success: 'paid', failed: 'failed', expired: 'expired', processing: 'in progress', pending: 'not started' }


interface ViewOptions {
  /** the channel asked for (`?channel=`, or the one a refused form was for) */
  chosen?: string
  errors?: FormErrors
  echo?: Echo
}

/** GET and POST /checkout/:tx/pay, POST /checkout/:tx/cancel, served by the checkout area (src/checkout/area.ts). */
export interface CheckoutPage {
  show(c: Context<AppEnv>): Response | Promise<Response>
  pay(c: Context<AppEnv>): Promise<Response>
  cancel(c: Context<AppEnv>): Response | Promise<Response>
}

/** `intercepted`: the intercepted hosts, which the page's own links back name when called through them (docs/behaviour.md#urls-handed-out) */
export function checkoutPage({ checkout, namespaces, kinds, scenarios, intercepted }: { checkout: CheckoutService; namespaces: Namespaces; kinds: Kinds; scenarios: Scenarios; intercepted: readonly string[] }): CheckoutPage {
  /** An attempt as the page lists it: its kind says how it was made. */
  const attemptLine = (a: Frozen<Attempt>): AttemptLine => ({ what: kinds.of(a.kind).attemptLine!(a), status: STATUS_WORD[a.status] ?? a.status, message: a.failure_message ?? '' })

  const merchantOf = (ns: string) => merchantNameOf(namespaces, ns)

  /** The page of an open checkout. */
  const view = (ns: string, co: Frozen<CheckoutCharge>, o: ViewOptions = {}) => {
    const base = checkoutPagePath(co.transaction_reference, ns)
    const merchant = merchantOf(ns)
    const errors = o.errors ?? {}
    const echo = o.echo ?? {}
    const order: Order = { merchant, amount: co.amount, currency: co.currency, reference: co.payment_reference, email: co.customer?.email ?? null, description: co.description }
    const all = checkout.attempts(ns, co)
    const under = checkout.current(ns, co)
    const current = under?.status === 'processing' ? under : undefined
    const past = all.filter((a) => a.transaction_reference !== under?.transaction_reference).map(attemptLine)
    const asked = co.channels.find((ch) => ch === o.chosen)
    const channels = co.channels
    const shown = { s: checkout.wired, ns, base, errors, echo, currency: co.currency, amount: co.amount, merchant }
    let body
    if (current && !asked) {
      body = <>{checkoutChannelOf(current.kind)?.Step({ ...shown, attempt: current })}</>
    } else {
      const chosen = asked ?? (co.default_channel && channels.includes(co.default_channel) ? co.default_channel : channels[0])
      const channel = chosen === undefined ? undefined : checkoutChannelOf(chosen)
      const last = all.at(-1)
      const notice = !Object.keys(errors).length && !current && last && (last.status === 'failed' || last.status === 'expired')
        ? `Payment ${last.status === 'expired' ? 'expired' : 'failed'}: ${last.failure_message ?? last.response_message}. You can try again, with the same or another method.`
        : null
      body = (
        <>
          {chosen === undefined ? null : <ChannelChoice base={base} channels={channels} chosen={chosen} label={(ch) => kinds.of(ch).label} />}
          <Alert errors={errors} notice={notice} />
          {channel?.Form(shown)}
          {channel ? <TestValues tests={channel.testValues(scenarios.forNs(ns), co.currency)} /> : null}
        </>
      )
    }
    return (
      <Layout title={`Pay ${merchant}`} order={order} attempts={past}>
        <h1>Pay {merchant}</h1>
        {body}
        {current && !asked ? (
          <p class="links">
            {/* one channel: the same channel's form again (another card, another wallet) */}
            <a href={`${base}?channel=${channels.find((ch) => ch !== current.kind) ?? current.kind}`}>{channels.length > 1 ? 'Pay another way' : 'Start again'}</a>
          </p>
        ) : null}
        <CancelForm base={base} />
      </Layout>
    )
  }

  /** An ended checkout: to redirect_url with the merchant's reference, or its outcome here. */
  const ended = (c: Context<AppEnv>, ns: string, co: Frozen<CheckoutCharge>, after: 'get' | 'post') => {
    if (co.redirect_url) return c.redirect(returnUrl(co.redirect_url, co.payment_reference), after === 'get' ? 302 : 303)
    if (after === 'post') return c.redirect(checkoutPagePath(co.transaction_reference, ns), 303)
    const merchant = merchantOf(ns)
    const message =
      co.status === 'success'
        ? `You paid ${formatMoney(co.currency, co.amount_paid)} to ${merchant}${co.payment_method ? ` ${kinds.payBy(co.payment_method)}` : ''}.`
        : (co.failure_message ?? (co.status === 'expired' ? CHECKOUT_MSG.EXPIRED : co.response_message))
    const order: Order = { merchant, amount: co.amount, currency: co.currency, reference: co.payment_reference, email: co.customer?.email ?? null, description: co.description }
    return c.html(
      <Layout title={co.status === 'success' ? 'Payment successful' : 'Checkout ended'} order={order} attempts={checkout.attempts(ns, co).map(attemptLine)}>
        <Outcome status={co.status} message={message} />
      </Layout>,
    )
  }

  /** Does what a form asked: starts paying by a channel, or answers the step of the attempt under way; refusals are thrown (ApiError). */
  const act = (c: Context<AppEnv>, ns: string, co: Frozen<CheckoutCharge>, a: PageAction): void => {
    const tx = co.transaction_reference
    if (a.starts) checkout.start(ns, tx, a.action, a.value, { returnUrl: `${clientOrigin(c, intercepted)}${checkoutPagePath(tx, ns)}`, merchant: merchantOf(ns) })
    else checkout.step(ns, tx, a.action, a.value, a.channel.kind)
  }

  /** A refusal as the page's errors: field errors by the field they name, anything else as text. */
  const errorsOf = (e: ApiError): FormErrors => {
    if (!(e instanceof ValidationError)) return { form: e.message }
    const out: FormErrors = {}
    const fields = serviceFields()
    for (const [k, v] of Object.entries(e.fields)) {
      const f = fields[k]
      if (f && !out[f]) out[f] = `${fieldLabels()[f] ?? f} ${v}`
      else out.form = `${out.form ? `${out.form} ` : ''}${k} ${v}`
    }
    return out
  }

  const notFound = (c: Context<AppEnv>, several: boolean) => c.html(<NotFoundPage several={several} />, 404)

  const show = (c: Context<AppEnv>) => {
    const found = checkout.locate(c)
    if (found.ns === undefined) return notFound(c, found.several)
    const { ns, checkout: co } = found
    if (!isOpen(co)) return ended(c, ns, co, 'get')
    return c.html(view(ns, co, { chosen: c.req.query('channel') }))
  }

  const pay = async (c: Context<AppEnv>) => {
    const found = checkout.locate(c)
    if (found.ns === undefined) return notFound(c, found.several)
    const { ns, checkout: co } = found
    // journaled in the checkout's namespace, as the 3DS page's posts are
    c.set('ns', ns)
    // a body refused (too large, unreadable) is the pages' refusal, as a declared length over the limit is
    const form = await readForm(c)
    noteRequest(c, journalNote(form), true)
    if (!isOpen(co)) return ended(c, ns, co, 'post')
    const parsed = parseAction(form, co.currency, checkout.current(ns, co))
    // a refused start of a channel shows that channel's form again; a refused step, the step
    const action = parsed.ok ? parsed.value.action : parsed.action
    const chosen = isCheckoutChannel(action) ? action : undefined
    if (!parsed.ok) return c.html(view(ns, co, { chosen, errors: parsed.errors, echo: parsed.echo }), 400)
    try {
      act(c, ns, co, parsed.value)
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      const now = checkout.get(ns, co.transaction_reference)
      if (!isOpen(now)) return ended(c, ns, now, 'post')
      return c.html(view(ns, now, { chosen, errors: errorsOf(e), echo: parsed.echo }), e.status)
    }
    const now = checkout.get(ns, co.transaction_reference)
    return isOpen(now) ? c.redirect(checkoutPagePath(now.transaction_reference, ns), 303) : ended(c, ns, now, 'post')
  }

  const cancel = (c: Context<AppEnv>) => {
    const found = checkout.locate(c)
    if (found.ns === undefined) return notFound(c, found.several)
    const { ns, checkout: co } = found
    c.set('ns', ns)
    noteRequest(c, { action: 'cancel' }, true)
    // already ended: the outcome stands, the browser goes where an ended checkout sends it
    if (isOpen(co)) checkout.cancel(ns, co.transaction_reference)
    return ended(c, ns, co, 'post')
  }

  return { show, pay, cancel }
}
