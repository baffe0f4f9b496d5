import { HtmlPage } from '../http/html-page.js'
import { HELD_BY_SEVERAL } from '../engine/pages.js'
import type { FC, PropsWithChildren } from 'hono/jsx'
import { formatMoney } from '../money.js'
import type { Echo, FormErrors } from './page-form.js'
import type { CheckoutChannel } from './schemas.js'

/**
 * The hosted checkout page's markup (docs/behaviour.md#checkout-page): server-rendered, no script, every
 * field labelled, every failure in text. One column on a phone; the order summary beside the
 * payment panel from 760 px. Each channel's form and steps are its own (`Form`, `Step`,
 * src/engine/checkout-channel.ts), made of the parts below.
 */

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#eef1f5;color:#1c2430}
main{max-width:980px;margin:32px auto;padding:0 16px;display:grid;gap:20px}
@media(min-width:760px){main{grid-template-columns:340px 1fr;align-items:start;margin-top:56px}}
.panel{background:#fff;border-radius:12px;box-shadow:0 4px 24px rgba(20,30,50,.12);padding:24px;min-width:0}
.brand{display:flex;align-items:center;gap:10px;font-weight:700;color:#0b3d91}
.logo{width:34px;height:34px;border-radius:8px;background:#0b3d91;color:#fff;display:grid;place-items:center;font-size:14px}
h1{font-size:20px;margin:4px 0 12px}h2{font-size:17px;margin:0 0 12px}p{margin:6px 0;color:#4a5566}
.summary dl{font-size:14px;grid-template-columns:max-content minmax(0,1fr)}
.amount{font-size:28px;font-weight:700;color:#1c2430;margin:12px 0 4px;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:16px 0;padding:14px;background:#f6f8fb;border-radius:8px}
dt{color:#6b7687}dd{margin:0;font-weight:600;text-align:right;overflow-wrap:anywhere;min-width:0}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:8px;margin:0 0 18px;padding:0}
nav a{display:block;padding:10px 14px;border:2px solid #cfd6e2;border-radius:8px;color:#1c2430;text-decoration:none;font-weight:600}
nav a[aria-current=page]{border-color:#0b3d91;background:#e9f0fc;color:#0b3d91}
label{display:block;font-weight:600;margin:12px 0 4px}
input[type=text],input[type=tel],input[type=password],select{width:100%;font:inherit;padding:10px 12px;border:1px solid #b8c1cf;border-radius:8px}
input[aria-invalid=true]{border-color:#b42318}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.err{color:#b42318;font-size:14px;margin:4px 0 0}
fieldset{border:0;margin:12px 0 0;padding:0}legend{font-weight:600;padding:0}
.choice label{display:flex;gap:8px;align-items:center;font-weight:400;margin:6px 0}
button,.button{display:block;width:100%;text-align:center;font:inherit;font-weight:600;padding:12px;border-radius:8px;border:2px solid transparent;cursor:pointer;margin-top:18px;text-decoration:none}
.primary{background:#0b3d91;color:#fff}.secondary{background:#fff;color:#a11;border-color:#e3b4b4}
a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #ffb020;outline-offset:2px}
.alert{padding:12px 14px;border-radius:8px;background:#fbe7e7;color:#8a1c1c;font-weight:600;margin:0 0 14px}
.ok{padding:12px 14px;border-radius:8px;background:#e4f6ea;color:#17633a;font-weight:600}
.note{padding:12px 14px;border-radius:8px;background:#fff6e0;color:#6a4a00;margin:0 0 14px}
.phone{border:2px solid #1c2430;border-radius:22px;padding:18px;max-width:320px;margin:0 auto;background:#fbfcfe}
.attempts{font-size:14px;margin:6px 0 0;padding-left:20px;color:#4a5566}.attempts li{overflow-wrap:anywhere}
.links{display:flex;flex-wrap:wrap;gap:6px 18px;margin-top:14px;font-size:15px}
.links a{display:block;width:100%;text-align:center;padding:10px 14px;border:2px solid #cfd6e2;border-radius:8px;color:#0b3d91;font-weight:600;text-decoration:none;background:#fff}
.links a:hover,nav a:hover{border-color:#0b3d91}
details.tests{margin-top:16px;font-size:14px;border:1px dashed #b8c1cf;border-radius:8px;padding:10px 14px;background:#fbfcfe}
details.tests summary{cursor:pointer;font-weight:600;color:#0b3d91}
details.tests table{width:100%;border-collapse:collapse;margin-top:8px}details.tests td{padding:4px 6px;border-top:1px solid #e3e8ef;vertical-align:top;overflow-wrap:anywhere}
details.tests td.v{font-family:ui-monospace,Menlo,Consolas,monospace;white-space:nowrap}
.foot{font-size:13px;color:#7a8597;text-align:center;margin-top:14px}
`


export interface Order {
  merchant: string
  amount: number
  currency: string
  reference: string
  email: string | null
  description: string | null
}

/** A past attempt, as one line of the list. */
export interface AttemptLine {
  what: string
  status: string
  message: string
}

export const Layout: FC<PropsWithChildren<{ title: string; order?: Order; attempts?: AttemptLine[] }>> = ({ title, order, attempts, children }) => (
  <HtmlPage title={title} style={STYLE}>
    <main>
      {order ? <OrderSummary order={order} attempts={attempts ?? []} /> : null}
      <div class="panel">
        {children}
        <p class="foot">paysandbox checkout simulation. No real money moves.</p>
      </div>
    </main>
  </HtmlPage>
)

const OrderSummary: FC<{ order: Order; attempts: AttemptLine[] }> = ({ order, attempts }) => (
  <section class="panel summary" aria-labelledby="order-h">
    <div class="brand">
      <span class="logo" aria-hidden="true">
        {order.merchant.slice(0, 2).toUpperCase()}
      </span>
      <span id="order-h">{order.merchant}</span>
    </div>
    <p class="amount" id="amount">
      {formatMoney(order.currency, order.amount)}
    </p>
    <dl>
      <dt>Merchant</dt>
      <dd>{order.merchant}</dd>
      <dt>Currency</dt>
      <dd>{order.currency}</dd>
      <dt>Reference</dt>
      <dd>{order.reference}</dd>
      {order.email ? (
        <>
          <dt>Email</dt>
          <dd>{order.email}</dd>
        </>
      ) : null}
      {order.description ? (
        <>
          <dt>For</dt>
          <dd>{order.description}</dd>
        </>
      ) : null}
    </dl>
    {attempts.length ? (
      <>
        <h2 id="attempts-h">Previous attempts</h2>
        <ol class="attempts" aria-labelledby="attempts-h">
          {attempts.map((a) => (
            <li>
              {a.what}: {a.status}
              {a.message && a.status !== 'success' ? ` (${a.message})` : ''}
            </li>
          ))}
        </ol>
      </>
    ) : null}
  </section>
)

/**
 * The choice of channel: links, the chosen one marked current, each named by its kind's label
 * (`label`: `Kind.label`, src/engine/kinds.ts), capitalised.
 */
export const ChannelChoice: FC<{ base: string; channels: readonly CheckoutChannel[]; chosen: CheckoutChannel; label: (ch: CheckoutChannel) => string }> = ({ base, channels, chosen, label }) =>
  channels.length < 2 ? null : (
    <nav aria-label="Payment method">
      <ul>
        {channels.map((ch) => (
          <li>
            <a href={`${base}?channel=${ch}`} aria-current={ch === chosen ? 'page' : undefined}>
              {label(ch).charAt(0).toUpperCase() + label(ch).slice(1)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )

/** A labelled input with its error, if any. */
export const Field: FC<{
  name: string
  label: string
  errors: FormErrors
  echo?: Echo
  type?: 'text' | 'tel' | 'password'
  autocomplete?: string
  inputmode?: 'numeric' | 'tel' | 'text'
  placeholder?: string
  maxlength?: number
}> = ({ name, label, errors, echo, type = 'text', autocomplete, inputmode, placeholder, maxlength }) => {
  const err = errors[name]
  const value = echo?.[name]
  return (
    <div>
      <label for={`f-${name}`}>{label}</label>
      <input
        id={`f-${name}`}
        name={name}
        type={type}
        autocomplete={autocomplete ?? 'off'}
        inputmode={inputmode}
        placeholder={placeholder}
        maxlength={maxlength}
        value={value}
        required
        aria-invalid={err ? 'true' : undefined}
        aria-describedby={err ? `e-${name}` : undefined}
      />
      {err ? (
        <p class="err" id={`e-${name}`}>
          {err}
        </p>
      ) : null}
    </div>
  )
}

/** A form posting one action to the page. */
export const ActionForm: FC<PropsWithChildren<{ base: string; action: string; button?: string; label?: string }>> = ({ base, action, button = 'Continue', label, children }) => (
  <form method="post" action={base} aria-label={label}>
    <input type="hidden" name="action" value={action} />
    {children}
    <button class="primary" type="submit">
      {button}
    </button>
  </form>
)

/** What went wrong, in words; `role=alert` so it is read out when the page loads. */
export const Alert: FC<{ errors: FormErrors; notice?: string | null }> = ({ errors, notice }) => {
  const lines = [notice, errors.form, ...Object.entries(errors).filter(([k]) => k !== 'form').map(([, v]) => v)].filter((s): s is string => !!s)
  if (!lines.length) return null
  return (
    <div class="alert" role="alert">
      {lines.map((l) => (
        <p style="margin:0;color:inherit">{l}</p>
      ))}
    </div>
  )
}

/** Pay with bank under way: the customer approves at the bank's page, which sends them back here. */
export const AtTheBank: FC<{ bank: string; page: string; base: string }> = ({ bank, page, base }) => (
  <>
    <p role="status">Approve the payment at {bank}. You come back here once you have.</p>
    <a class="button primary" href={page}>
      Go to {bank}
    </a>
    <p>
      <a href={base}>Check again</a>
    </p>
  </>
)

export const Waiting: FC<{ what: string; base: string }> = ({ what, base }) => (
  <>
    <p role="status">{what} This page shows the outcome once it arrives.</p>
    <a class="button primary" href={base}>
      Check again
    </a>
  </>
)

export const CancelForm: FC<{ base: string }> = ({ base }) => (
  <form method="post" action={base.replace(/\/pay$/, '/cancel')} aria-label="Cancel payment">
    <button class="secondary" type="submit">
      Cancel
    </button>
  </form>
)

export const Outcome: FC<{ status: string; message: string }> = ({ status, message }) => (
  <>
    <h1>{status === 'success' ? 'Payment successful' : status === 'expired' ? 'Checkout expired' : 'Payment cancelled'}</h1>
    <p class={status === 'success' ? 'ok' : 'alert'} role="status">
      {message}
    </p>
    <p>You can close this page.</p>
  </>
)

/** `several`: the link names a reference several namespaces hold, and no namespace (docs/behaviour.md#urls-handed-out) */
export const NotFoundPage: FC<{ several?: boolean }> = ({ several }) => (
  <Layout title="Checkout not found">
    <h1>Checkout not found</h1>
    <p>{several ? HELD_BY_SEVERAL : 'No checkout has this link. Check the link the merchant gave you.'}</p>
  </Layout>
)
