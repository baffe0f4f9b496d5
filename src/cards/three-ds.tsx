import type { Context } from 'hono'
import { HtmlPage } from '../http/html-page.js'
import type { FC, PropsWithChildren } from 'hono/jsx'
import { locateCharge, returnUrl } from '../charges/charge-query.js'
import type { CardCharge } from '../charges/types.js'
import type { Frozen } from '../store/frozen.js'
import { noteRequest, type AppEnv } from '../http/context.js'
import type { Namespaces } from '../namespaces.js'
import type { Store } from '../store/store.js'
import { ApiError } from '../errors.js'
import { formatMoney } from '../money.js'
import type { CardService } from './service.js'

/**
 * The 3DS challenge page (docs/behaviour.md 8): GET shows it, POST with `decision` = approve or decline
 * records the cardholder's choice, then redirects to the charge's redirect_url with
 * `?reference=<payment reference>`, or shows the outcome when there is none. No key: this is the
 * customer's browser; the transaction reference itself is the unguessable part.
 */

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#eef1f5;color:#1c2430}
main{max-width:420px;margin:48px auto;padding:0 16px}
.card{background:#fff;border-radius:12px;box-shadow:0 4px 24px rgba(20,30,50,.12);padding:28px}
.bank{display:flex;align-items:center;gap:10px;font-weight:700;color:#0b3d91;margin-bottom:8px}
.logo{width:34px;height:34px;border-radius:8px;background:#0b3d91;color:#fff;display:grid;place-items:center;font-size:14px}
h1{font-size:20px;margin:8px 0 4px}p{margin:6px 0;color:#4a5566}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:20px 0;padding:16px;background:#f6f8fb;border-radius:8px}
dt{color:#6b7687}dd{margin:0;font-weight:600;text-align:right;overflow-wrap:anywhere;min-width:0}
.actions{display:flex;gap:12px;margin-top:20px}
button{flex:1;font:inherit;font-weight:600;padding:12px;border-radius:8px;border:2px solid transparent;cursor:pointer}
button:focus-visible{outline:3px solid #ffb020;outline-offset:2px}
.approve{background:#0b3d91;color:#fff}.decline{background:#fff;color:#a11;border-color:#e3b4b4}
.status{padding:12px 16px;border-radius:8px;font-weight:600}.ok{background:#e4f6ea;color:#17633a}.bad{background:#fbe7e7;color:#8a1c1c}
.foot{font-size:13px;color:#7a8597;text-align:center;margin-top:16px}
`

const Page: FC<PropsWithChildren<{ title: string }>> = ({ title, children }) => (
  <HtmlPage title={title} style={STYLE}>
    <main>
      <div class="card">
        <div class="bank">
          <span class="logo" aria-hidden="true">
            SB
          </span>
          <span>Sandbox Bank Secure</span>
        </div>
        {children}
      </div>
      <p class="foot">paysandbox 3-D Secure simulation. No real card is charged.</p>
    </main>
  </HtmlPage>
)


const Summary: FC<{ charge: Frozen<CardCharge>; merchant: string }> = ({ charge, merchant }) => (
  <dl>
    <dt>Merchant</dt>
    <dd>{merchant}</dd>
    <dt>Amount</dt>
    <dd>{formatMoney(charge.currency, charge.amount)}</dd>
    <dt>Card</dt>
    <dd>
      {charge.card.card_type.toUpperCase()} •••• {charge.card.last_four}
    </dd>
    <dt>Reference</dt>
    <dd>{charge.payment_reference}</dd>
  </dl>
)

const locate = (store: Store, tx: string) => locateCharge<CardCharge>(store, tx, 'card')

function outcomeText(charge: Frozen<CardCharge>): string {
  if (charge.status === 'success') return 'Payment approved. This transaction is complete.'
  if (charge.status === 'failed') return `Payment declined: ${charge.failure_message ?? 'failed'}.`
  return 'This transaction is still processing.'
}

/** GET and POST /_sandbox/3ds/:tx, served by the cards area (src/cards/area.ts). */
export interface ThreeDsPage {
  show(c: Context<AppEnv>): Response | Promise<Response>
  decide(c: Context<AppEnv>): Promise<Response>
}

export function threeDsPage({ store, namespaces, cards }: { store: Store; namespaces: Namespaces; cards: CardService }): ThreeDsPage {
  const show = (c: Context<AppEnv>) => {
    const found = locate(store, c.req.param('tx')!)
    if (!found) {
      return c.html(
        <Page title="Transaction not found">
          <h1>Transaction not found</h1>
          <p>No card transaction has this reference. Check the link you were given.</p>
        </Page>,
        404,
      )
    }
    const { ns, charge } = found
    const merchant = namespaces.get(ns)?.name ?? 'Merchant'
    if (charge.status !== 'processing' || charge.pending_steps[0] !== '3DS') {
      return c.html(
        <Page title="Transaction already complete">
          <h1>Nothing to authenticate</h1>
          <p class={`status ${charge.status === 'success' ? 'ok' : 'bad'}`} role="status">
            {charge.status === 'processing' ? 'This transaction does not need 3-D Secure authentication now.' : outcomeText(charge)}
          </p>
          <Summary charge={charge} merchant={merchant} />
        </Page>,
      )
    }
    return c.html(
      <Page title="Verify your payment">
        <h1>Verify your payment</h1>
        <p>Your bank asks you to confirm this online payment.</p>
        <Summary charge={charge} merchant={merchant} />
        <form method="post" action={`/_sandbox/3ds/${encodeURIComponent(charge.transaction_reference)}`}>
          <div class="actions">
            <button class="approve" type="submit" name="decision" value="approve">
              Approve
            </button>
            <button class="decline" type="submit" name="decision" value="decline">
              Decline
            </button>
          </div>
        </form>
      </Page>,
    )
  }

  const decide = async (c: Context<AppEnv>) => {
    const tx = c.req.param('tx')!
    const found = locate(store, tx)
    let decision: unknown
    try {
      const form = await c.req.parseBody()
      decision = form.decision
    } catch {
      decision = undefined
    }
    if (!found) {
      return c.html(
        <Page title="Transaction not found">
          <h1>Transaction not found</h1>
          <p>No card transaction has this reference.</p>
        </Page>,
        404,
      )
    }
    if (decision !== 'approve' && decision !== 'decline') {
      return c.html(
        <Page title="Choose Approve or Decline">
          <h1>Choose Approve or Decline</h1>
          <p>The form must send decision=approve or decision=decline.</p>
        </Page>,
        400,
      )
    }
    const { ns } = found
    // journaled in the charge's namespace, so a recorded session keeps the cardholder's choice
    c.set('ns', ns)
    noteRequest(c, `decision=${decision}`)
    let charge: CardCharge
    try {
      charge = cards.decide3ds(ns, tx, decision)
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      return c.html(
        <Page title="Transaction already complete">
          <h1>Nothing to authenticate</h1>
          <p class="status bad" role="status">
            {e.message}
          </p>
          <Summary charge={found.charge} merchant={namespaces.get(ns)?.name ?? 'Merchant'} />
        </Page>,
        e.status,
      )
    }
    if (charge.redirect_url) return c.redirect(returnUrl(charge.redirect_url, charge.payment_reference), 302)
    return c.html(
      <Page title={charge.status === 'success' ? 'Payment approved' : 'Payment declined'}>
        <h1>{charge.status === 'success' ? 'Payment approved' : 'Payment declined'}</h1>
        <p class={`status ${charge.status === 'success' ? 'ok' : 'bad'}`} role="status">
          {outcomeText(charge)}
        </p>
        <Summary charge={charge} merchant={namespaces.get(ns)?.name ?? 'Merchant'} />
      </Page>,
    )
  }

  return { show, decide }
}
