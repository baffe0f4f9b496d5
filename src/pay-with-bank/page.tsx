import type { Context } from 'hono'
import type { FC, PropsWithChildren } from 'hono/jsx'
import { locateCharge, returnUrl } from '../charges/charge-query.js'
import { ApiError } from '../errors.js'
import { HtmlPage } from '../http/html-page.js'
import { noteRequest, type AppEnv } from '../http/context.js'
import { formatMoney } from '../money.js'
import type { Namespaces } from '../namespaces.js'
import type { Frozen } from '../store/frozen.js'
import type { Store } from '../store/store.js'
import { bankPagePath, type PayWithBankCharge, type PayWithBankService } from './service.js'

/**
 * The sandbox bank's page of pay with bank (docs/behaviour.md 13.11), at the charge's
 * `redirect_url`: GET shows the payment, POST with `decision` = approve or decline records the
 * customer's choice, then sends them to the merchant's redirect_url with `?reference=<payment
 * reference>`, or shows the outcome when there is none. No key: this is the customer's browser;
 * the transaction reference itself is the unguessable part.
 */

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#eef3ef;color:#1c2430}
main{max-width:420px;margin:48px auto;padding:0 16px}
.card{background:#fff;border-radius:12px;box-shadow:0 4px 24px rgba(20,40,30,.12);padding:28px}
.bank{font-weight:700;color:#0d6b3c;margin-bottom:8px}
h1{font-size:20px;margin:8px 0 4px}p{margin:6px 0;color:#4a5566}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:20px 0;padding:16px;background:#f6f8fb;border-radius:8px}
dt{color:#6b7687}dd{margin:0;font-weight:600;text-align:right;overflow-wrap:anywhere;min-width:0}
.actions{display:flex;gap:12px;margin-top:20px}
button{flex:1;font:inherit;font-weight:600;padding:12px;border-radius:8px;border:2px solid transparent;cursor:pointer}
button:focus-visible{outline:3px solid #ffb020;outline-offset:2px}
.approve{background:#0d6b3c;color:#fff}.decline{background:#fff;color:#a11;border-color:#e3b4b4}
.status{padding:12px 16px;border-radius:8px;font-weight:600}.ok{background:#e4f6ea;color:#17633a}.bad{background:#fbe7e7;color:#8a1c1c}.wait{background:#fff6e0;color:#7a5200}
.foot{font-size:13px;color:#7a8597;text-align:center;margin-top:16px}
`

const Page: FC<PropsWithChildren<{ title: string; bank?: string }>> = ({ title, bank, children }) => (
  <HtmlPage title={title} style={STYLE}>
    <main>
      <div class="card">
        <div class="bank">{bank ?? 'Sandbox Bank'}</div>
        {children}
      </div>
      <p class="foot">paysandbox pay with bank simulation. No real account is debited.</p>
    </main>
  </HtmlPage>
)

const Summary: FC<{ charge: Frozen<PayWithBankCharge>; merchant: string }> = ({ charge, merchant }) => (
  <dl>
    <dt>Merchant</dt>
    <dd>{merchant}</dd>
    <dt>Amount</dt>
    <dd>{formatMoney(charge.currency, charge.amount)}</dd>
    <dt>Bank</dt>
    <dd>{charge.bank.name}</dd>
    <dt>Reference</dt>
    <dd>{charge.payment_reference}</dd>
  </dl>
)

/** What the page says of a charge that is no longer waiting for the customer. */
function outcome(charge: Frozen<PayWithBankCharge>): { text: string; tone: 'ok' | 'bad' | 'wait' } {
  if (charge.status === 'success') return { text: 'Payment approved. This transaction is complete.', tone: 'ok' }
  if (charge.status === 'processing') return { text: `${charge.response_message}.`, tone: 'wait' }
  return { text: `Payment not completed: ${charge.failure_message ?? charge.response_message}.`, tone: 'bad' }
}

const NotFound = () => (
  <Page title="Transaction not found">
    <h1>Transaction not found</h1>
    <p>No pay with bank transaction has this reference. Check the link you were given.</p>
  </Page>
)

/** GET and POST /_sandbox/pay-with-bank/:tx, served by the pay with bank area. */
export interface BankPage {
  show(c: Context<AppEnv>): Response | Promise<Response>
  decide(c: Context<AppEnv>): Promise<Response>
}

export function bankPage({ store, namespaces, payWithBank }: { store: Store; namespaces: Namespaces; payWithBank: PayWithBankService }): BankPage {
  const locate = (tx: string) => locateCharge<PayWithBankCharge>(store, tx, 'pay_with_bank')
  const merchantOf = (ns: string) => namespaces.get(ns)?.name ?? 'Merchant'
  const ended = (charge: Frozen<PayWithBankCharge>, merchant: string, text = outcome(charge)) => (
    <Page title={text.tone === 'ok' ? 'Payment approved' : 'Payment status'} bank={charge.bank.name}>
      <h1>{text.tone === 'ok' ? 'Payment approved' : 'Payment status'}</h1>
      <p class={`status ${text.tone}`} role="status">
        {text.text}
      </p>
      <Summary charge={charge} merchant={merchant} />
    </Page>
  )

  const show = (c: Context<AppEnv>) => {
    const found = locate(c.req.param('tx')!)
    if (!found) return c.html(<NotFound />, 404)
    const { ns, charge } = found
    if (charge.status !== 'processing' || charge.approved) return c.html(ended(charge, merchantOf(ns)))
    return c.html(
      <Page title="Approve your payment" bank={charge.bank.name}>
        <h1>Approve your payment</h1>
        <p>You are signed in to {charge.bank.name}. Approve this payment from your account, or decline it.</p>
        <Summary charge={charge} merchant={merchantOf(ns)} />
        <form method="post" action={bankPagePath(charge.transaction_reference)}>
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
    const found = locate(tx)
    const decision = await c.req.parseBody().then((form) => form.decision, () => undefined)
    if (!found) return c.html(<NotFound />, 404)
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
    // journaled in the charge's namespace, so a recorded session keeps the customer's choice
    c.set('ns', ns)
    noteRequest(c, `decision=${decision}`)
    let charge: Frozen<PayWithBankCharge>
    try {
      charge = payWithBank.decide(ns, tx, decision)
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      return c.html(ended(found.charge, merchantOf(ns), { text: e.message, tone: 'bad' }), e.status)
    }
    if (charge.redirect_url && charge.status !== 'processing') return c.redirect(returnUrl(charge.redirect_url, charge.payment_reference), 302)
    return c.html(ended(charge, merchantOf(ns)))
  }

  return { show, decide }
}
