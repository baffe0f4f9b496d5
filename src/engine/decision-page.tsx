import type { Context } from 'hono'
import type { Child, FC, PropsWithChildren } from 'hono/jsx'
import { ApiError } from '../errors.js'
import { readForm } from '../http/body.js'
import { HtmlPage } from '../http/html-page.js'
import { noteRequest, type AppEnv } from '../http/context.js'
import { formatMoney } from '../money.js'
import type { Namespaces } from '../namespaces.js'
import type { Frozen } from '../store/frozen.js'
import type { Store } from '../store/store.js'
import { clientOrigin } from '../http/origin.js'
import { returnUrl } from './charge-query.js'
import { HELD_BY_SEVERAL, checkoutPagePath, locateCharge, merchantNameOf } from './pages.js'
import type { ChargeBase, ChargeKind } from './types.js'

/**
 * The customer's approve-or-decline page a channel serves at its charge's redirect (the card's
 * 3DS page, docs/behaviour.md#card-3ds-page; the sandbox bank's page of pay with bank, docs/behaviour.md#pay-with-bank): GET shows the
 * payment and the two buttons while the charge waits for the customer, POST with `decision` =
 * approve or decline hands the choice to the channel, then sends the customer back to the
 * merchant's redirect_url with `?reference=<payment reference>`, or shows the outcome when there
 * is none (a checkout's attempt: to its checkout's page). No key: this is the customer's browser;
 * the transaction reference itself is the unguessable part, the page id before it names the
 * namespace (src/engine/pages.ts). The channel declares what differs (`DecisionPageOf`); the
 * steps are here.
 */

/** A charge the customer decides on: it may name where they go back to. */
type Decided = ChargeBase & { redirect_url: string | null }

/** A page's status line: its title and heading, the tone of its box and its text. */
export interface Said {
  title: string
  /** the heading, when it is not the title */
  heading?: string
  tone: 'ok' | 'bad' | 'wait'
  text: string
}

/** A bank's look: the page's background, the card's shadow, the bank's colour, the rules of its header. */
export interface Look {
  ground: string
  shadow: string
  accent: string
  header: string
}

const styleOf = ({ ground, shadow, accent, header }: Look): string => `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:${ground};color:#1c2430}
main{max-width:420px;margin:48px auto;padding:0 16px}
.card{background:#fff;border-radius:12px;box-shadow:0 4px 24px ${shadow};padding:28px}
${header}
h1{font-size:20px;margin:8px 0 4px}p{margin:6px 0;color:#4a5566}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:20px 0;padding:16px;background:#f6f8fb;border-radius:8px}
dt{color:#6b7687}dd{margin:0;font-weight:600;text-align:right;overflow-wrap:anywhere;min-width:0}
.actions{display:flex;gap:12px;margin-top:20px}
button{flex:1;font:inherit;font-weight:600;padding:12px;border-radius:8px;border:2px solid transparent;cursor:pointer}
button:focus-visible{outline:3px solid #ffb020;outline-offset:2px}
.approve{background:${accent};color:#fff}.decline{background:#fff;color:#a11;border-color:#e3b4b4}
.status{padding:12px 16px;border-radius:8px;font-weight:600}.ok{background:#e4f6ea;color:#17633a}.bad{background:#fbe7e7;color:#8a1c1c}.wait{background:#fff6e0;color:#7a5200}
.foot{font-size:13px;color:#7a8597;text-align:center;margin-top:16px}
`

/** What a channel declares of its page. */
export interface DecisionPageOf<C extends Decided> {
  kind: ChargeKind
  look: Look
  /** what the page's header shows: the bank, by the charge's name for it when there is one */
  bank(charge?: Frozen<C>): Child
  /** the line under the card */
  foot: string
  /** its path for a charge, naming its namespace, which the form posts to (src/engine/pages.ts) */
  path(tx: string, ns: string): string
  /** the summary's line for what pays: `['Card', 'VISA •••• 1111']` */
  instrument(charge: Frozen<C>): [string, string]
  /** what the page says where no charge of the kind has the reference, on GET and on POST */
  notFound: { show: string; decide: string }
  /** the charge waits for the customer's choice */
  awaiting(charge: Frozen<C>): boolean
  /** the question, while it waits: the title and the line under it */
  ask(charge: Frozen<C>): { title: string; text: string }
  /** the channel takes the customer's choice (throws `ApiError` when it cannot) */
  decide(ns: string, tx: string, decision: 'approve' | 'decline'): Frozen<C>
  /** what GET says of a charge that does not wait for the customer */
  ended(charge: Frozen<C>): Said
  /** what POST says when the channel refused the choice */
  refused(message: string): Said
  /** what POST says once the channel took the choice, unless the customer goes back */
  decided(charge: Frozen<C>): Said
  /** the customer goes back to the merchant now (when the charge names where) */
  returns(charge: Frozen<C>): boolean
}

/**
 * What the pages of a wallet or a bank say (mobile money's, pay with bank's): a reference no charge
 * of the kind has (`what`: the kind in words); titled `Payment approved` once approved, `Payment
 * status` otherwise; of a charge that no longer waits, its end (`message`: what the charge says
 * meanwhile); and the customer kept on the page while the wallet or the bank never answers.
 */
export function paymentSays<C extends Decided>(what: string, message: (charge: Frozen<C>) => string): Pick<DecisionPageOf<C>, 'notFound' | 'ended' | 'refused' | 'decided' | 'returns'> {
  const notFound = `No ${what} transaction has this reference. Check the link you were given.`
  const said = (text: string, tone: Said['tone']): Said => ({ title: tone === 'ok' ? 'Payment approved' : 'Payment status', tone, text })
  const outcome = (charge: Frozen<C>): Said => {
    if (charge.status === 'success') return said('Payment approved. This transaction is complete.', 'ok')
    if (charge.status === 'processing') return said(`${message(charge)}.`, 'wait')
    return said(`Payment not completed: ${charge.failure_message ?? message(charge)}.`, 'bad')
  }
  return {
    notFound: { show: notFound, decide: notFound },
    ended: outcome,
    refused: (text) => said(text, 'bad'),
    decided: outcome,
    returns: (charge) => charge.status !== 'processing',
  }
}

/** GET and POST of a decision page, served by the channel's area. */
export interface DecisionPage {
  show(c: Context<AppEnv>): Response | Promise<Response>
  decide(c: Context<AppEnv>): Promise<Response>
}

/** `intercepted`: the intercepted hosts, which the way back to a checkout's page names when called through them (docs/behaviour.md#urls-handed-out) */
export function decisionPage<C extends Decided>(of: DecisionPageOf<C>, { store, namespaces, intercepted }: { store: Store; namespaces: Namespaces; intercepted: readonly string[] }): DecisionPage {
  const locate = (c: Context<AppEnv>) => locateCharge<C>(store, namespaces, c, of.kind)
  const style = styleOf(of.look)
  const merchantOf = (ns: string) => merchantNameOf(namespaces, ns)

  const Page: FC<PropsWithChildren<{ title: string; charge?: Frozen<C> }>> = ({ title, charge, children }) => (
    <HtmlPage title={title} style={style}>
      <main>
        <div class="card">
          <div class="bank">{of.bank(charge)}</div>
          {children}
        </div>
        <p class="foot">{of.foot}</p>
      </main>
    </HtmlPage>
  )

  const Summary: FC<{ charge: Frozen<C>; merchant: string }> = ({ charge, merchant }) => {
    const [label, value] = of.instrument(charge)
    return (
      <dl>
        <dt>Merchant</dt>
        <dd>{merchant}</dd>
        <dt>Amount</dt>
        <dd>{formatMoney(charge.currency, charge.amount)}</dd>
        <dt>{label}</dt>
        <dd>{value}</dd>
        <dt>Reference</dt>
        <dd>{charge.payment_reference}</dd>
      </dl>
    )
  }

  const status = (charge: Frozen<C>, merchant: string, said: Said) => (
    <Page title={said.title} charge={charge}>
      <h1>{said.heading ?? said.title}</h1>
      <p class={`status ${said.tone}`} role="status">
        {said.text}
      </p>
      <Summary charge={charge} merchant={merchant} />
    </Page>
  )

  const notFound = (text: string) => (
    <Page title="Transaction not found">
      <h1>Transaction not found</h1>
      <p>{text}</p>
    </Page>
  )

  const show = (c: Context<AppEnv>) => {
    const found = locate(c)
    if (found.ns === undefined) return c.html(notFound(found.several ? HELD_BY_SEVERAL : of.notFound.show), 404)
    const { ns, charge } = found
    if (!of.awaiting(charge)) return c.html(status(charge, merchantOf(ns), of.ended(charge)))
    const ask = of.ask(charge)
    return c.html(
      <Page title={ask.title} charge={charge}>
        <h1>{ask.title}</h1>
        <p>{ask.text}</p>
        <Summary charge={charge} merchant={merchantOf(ns)} />
        <form method="post" action={of.path(charge.transaction_reference, ns)}>
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
    const found = locate(c)
    const decision = (await readForm(c)).get('decision')
    if (found.ns === undefined) return c.html(notFound(found.several ? HELD_BY_SEVERAL : of.notFound.decide), 404)
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
    const tx = found.charge.transaction_reference
    // journaled in the charge's namespace, so a recorded session keeps the customer's choice
    c.set('ns', ns)
    noteRequest(c, `decision=${decision}`)
    let charge: Frozen<C>
    try {
      charge = of.decide(ns, tx, decision)
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      return c.html(status(found.charge, merchantOf(ns), of.refused(e.message)), e.status)
    }
    // a checkout's attempt goes back to its checkout's page, of this namespace on the origin reached
    // now (what the attempt keeps as its redirect_url may name another: a snapshot restored under another key)
    const back = charge.parent ? `${clientOrigin(c, intercepted)}${checkoutPagePath(charge.parent, ns)}` : charge.redirect_url
    if (back && of.returns(charge)) return c.redirect(returnUrl(back, charge.payment_reference), 302)
    return c.html(status(charge, merchantOf(ns), of.decided(charge)))
  }

  return { show, decide }
}
