import type { FC } from 'hono/jsx'
import type { BankTransferCharge } from '../../bank-transfer/service.js'
import type { ChargeBase } from '../../charges/types.js'
import type { CheckoutCharge } from '../../checkout/service.js'
import { ActionButton, enc, money, when } from './ui.js'
import type { DashboardSources } from './view.js'

/**
 * What the charges list shows of Checkout Standard (docs/behaviour.md 9.8 and 13.1): a checkout's
 * channels and how it was paid, the buttons that pay it by a channel or cancel it (the control
 * calls a CI job makes), and a bank transfer's temporary account.
 */

const CHANNEL_LABEL: Record<string, string> = { card: 'card', bank_transfer: 'bank transfer', mobile_money: 'mobile money' }
export const channelLabel = (ch: string) => CHANNEL_LABEL[ch] ?? ch.replace(/_/g, ' ')

/** The lines under a checkout's kind: what it offers, or what paid it. */
export function checkoutLines(c: CheckoutCharge): string[] {
  const lines = [c.payment_method ? `paid by ${channelLabel(c.payment_method)}` : `offers ${c.channels.map(channelLabel).join(', ') || 'no channel'}`]
  if (c.attempts.length) lines.push(`${c.attempts.length} attempt${c.attempts.length === 1 ? '' : 's'}`)
  return lines
}

/** The lines under a bank transfer's kind: its temporary account and what it waits for. */
export function transferLines(c: BankTransferCharge): string[] {
  const a = c.bank_account
  const lines = [`account ${a.account_number}`, `${a.bank_name} (${a.bank_code}), ${a.account_name}`, `expects ${money(c.amount_expected, c.currency)}`, `account expires ${when(a.expiry_date_in_utc)}`]
  const last = c.transfers.at(-1)
  if (last) lines.push(`last transfer ${money(last.amount, c.currency)} (${last.payment_event}${last.reversal ? `, ${money(last.reversal.amount, c.currency)} returned` : ''})`)
  return lines
}

/** A checkout's status lines: the message, and while it is open its expiry. */
export const CheckoutStatus: FC<{ s: DashboardSources; c: CheckoutCharge }> = ({ s, c }) => {
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
            <ActionButton path={`/_sandbox/checkouts/${enc(tx)}/pay`} body={{ channel: ch }} label={`Pay by ${channelLabel(ch)}`} name={`Pay ${ref} by ${channelLabel(ch)}`} />
          ))}
          <ActionButton path={`/_sandbox/checkouts/${enc(tx)}/cancel`} label="Cancel" cls="danger" name={`Cancel checkout ${ref}`} />
          <a class="small" href={`/checkout/${enc(tx)}/pay`} target="_blank" rel="noopener">
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
export function attemptLabel(checkout: CheckoutCharge | undefined, child: ChargeBase): string {
  const n = checkout ? checkout.attempts.findIndex((a) => a.reference === child.transaction_reference) + 1 : 0
  return `attempt${n ? ` ${n}` : ''} of ${checkout?.payment_reference ?? child.parent}`
}
