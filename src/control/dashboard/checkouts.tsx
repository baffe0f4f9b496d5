import type { Frozen } from '../../store/frozen.js'
import type { FC } from 'hono/jsx'
import type { ChargeBase } from '../../engine/types.js'
import { checkoutPagePath } from '../../engine/pages.js'
import type { CheckoutCharge } from '../../checkout/index.js'
import { ActionButton, enc, when } from '../../http/panel/ui.js'
import type { DashboardSources } from './view.js'

/**
 * What the charges list shows of Checkout Standard (docs/behaviour.md#dashboard and docs/behaviour.md#checkout) beyond its
 * kind's lines (its channels and how it was paid, declared with the kind): the buttons that pay it
 * by a channel or cancel it (the control calls a CI job makes), and where an attempt belongs.
 */

/** A checkout's status lines: the message, and while it is open its expiry. */
export const CheckoutStatus: FC<{ s: DashboardSources; ns: string; c: Frozen<CheckoutCharge> }> = ({ s, ns, c }) => {
  const open = s.checkout.isOpen(c)
  const message = c.failure_message ?? (c.status === 'success' ? null : c.response_message)
  const tx = c.transaction_reference
  const ref = c.payment_reference
  return (
    <>
      {message ? <div class="small muted">{message}</div> : ''}
      {open ? <div class="small">open until {when(c.expires_at)}</div> : ''}
      {open ? (
        <div class="actions" style="margin-top:4px">
          {c.channels.map((ch) => (
            <ActionButton path={`/_sandbox/checkouts/${enc(tx)}/pay`} body={{ channel: ch }} label={`Pay ${s.kinds.payBy(ch)}`} name={`Pay ${ref} ${s.kinds.payBy(ch)}`} />
          ))}
          <ActionButton path={`/_sandbox/checkouts/${enc(tx)}/cancel`} label="Cancel" cls="danger" name={`Cancel checkout ${ref}`} />
          <a class="small" href={checkoutPagePath(tx, ns)} target="_blank" rel="noopener">
            Open the checkout page
          </a>
        </div>
      ) : (
        ''
      )}
    </>
  )
}

/** "attempt 2 of <checkout reference>": where an attempt's row says what it belongs to. */
export function attemptLabel(checkout: Frozen<CheckoutCharge> | undefined, child: Frozen<ChargeBase>): string {
  const n = checkout ? checkout.attempts.findIndex((a) => a.reference === child.transaction_reference) + 1 : 0
  return `attempt${n ? ` ${n}` : ''} of ${checkout?.payment_reference ?? child.parent}`
}
