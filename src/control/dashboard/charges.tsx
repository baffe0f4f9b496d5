import type { FC } from 'hono/jsx'
import type { BankTransferCharge } from '../../bank-transfer/service.js'
import type { CardCharge, ChargeBase } from '../../charges/types.js'
import type { CheckoutCharge } from '../../checkout/service.js'
import type { DirectDebit } from '../../direct-debit/service.js'
import type { MobileMoneyCharge } from '../../mobile-money/service.js'
import type { VirtualAccountCharge } from '../../virtual-accounts/service.js'
import { CheckoutStatus, attemptLabel, checkoutLines, transferLines } from './checkouts.js'
import { ActionButton, Badge, ROW_LIMIT, Table, enc, money, newestFirst, when } from './ui.js'
import { chargeMatches, matchesRef, type DashboardSources, type Filters } from './view.js'

/** The card, wallet or account a charge was made with (a card masked as first six****last four). */
function instrument(c: ChargeBase): string[] {
  if (c.kind === 'card') {
    const card = (c as CardCharge).card
    return [`${card.card_type} ${card.first_six}****${card.last_four}`]
  }
  if (c.kind === 'mobile_money') return [`wallet ${(c as MobileMoneyCharge).wallet.number}`]
  if (c.kind === 'bank_transfer') return transferLines(c as BankTransferCharge)
  if (c.kind === 'checkout') return checkoutLines(c as CheckoutCharge)
  if (c.kind === 'virtual_account') {
    const v = (c as VirtualAccountCharge).virtual_bank_account
    return [`virtual account ${v.account_number} (${v.account_reference})`]
  }
  const d = c as DirectDebit
  return [`account ${d.account_number} (${d.authorization_code})`]
}

/** The step a processing charge waits for (3DS, OTP, STK_PROMPT...). */
export function pendingStep(c: ChargeBase): string | undefined {
  if (c.status !== 'processing') return undefined
  const steps = (c as CardCharge | MobileMoneyCharge).pending_steps as string[] | undefined
  return steps?.[0]
}

/** Where an attempt's row sits: nested under its checkout's row, or alone (marked) when the filters leave its checkout out. */
interface AttemptOf {
  checkout: CheckoutCharge | undefined
  nested: boolean
}

const ChargeRow: FC<{ s: DashboardSources; c: ChargeBase; attempt?: AttemptOf }> = ({ s, c, attempt }) => {
  const step = pendingStep(c)
  const tx = c.transaction_reference
  const checkout = c.kind === 'checkout' ? (c as CheckoutCharge) : undefined
  return (
    <tr data-ref={c.payment_reference} data-kind={c.kind} data-status={c.status} data-parent={attempt ? c.parent : undefined} class={attempt?.nested ? 'attempt nested' : attempt ? 'attempt' : undefined}>
      <td class="ref">
        {attempt ? <span class="sub attempt-of">{attemptLabel(attempt.checkout, c)}</span> : ''}
        <span class="mono strong">{c.payment_reference}</span>
        <span class="sub mono">{tx}</span>
        <span class="sub">{when(c.created_at)}</span>
      </td>
      <td class="wrap-s">
        {c.kind.replace('_', ' ')}
        {instrument(c).map((line) => (
          <span class="sub mono">{line}</span>
        ))}
      </td>
      <td class="num">{money(c.amount, c.currency)}</td>
      <td class="wrap-s">
        <Badge value={c.status} />
        {checkout ? (
          <CheckoutStatus s={s} c={checkout} />
        ) : (
          <>
            {c.failure_message ? <div class="small muted">{c.failure_message}</div> : ''}
            {step ? <div class="small">waiting for {step}</div> : ''}
            {c.status === 'processing' && !step && c.kind === 'bank_transfer' ? <div class="small">waiting for a transfer</div> : ''}
            {c.status === 'processing' ? (
              <div class="actions" style="margin-top:4px">
                <ActionButton path={`/_sandbox/charges/${enc(tx)}/complete`} body={{ outcome: 'success' }} label="Succeed" name={`Complete ${c.payment_reference} as success`} />
                <ActionButton path={`/_sandbox/charges/${enc(tx)}/complete`} body={{ outcome: 'failed' }} label="Fail" cls="danger" name={`Complete ${c.payment_reference} as failed`} />
                {step === '3DS' ? (
                  <a class="small" href={`/_sandbox/3ds/${enc(tx)}`} target="_blank" rel="noopener">
                    Open the 3DS page
                  </a>
                ) : (
                  ''
                )}
              </div>
            ) : (
              ''
            )}
          </>
        )}
      </td>
      <td class="wrap">
        <ol class="steps">
          {c.history.map((h) => (
            <li title={h.at}>
              <span class="step">{h.step}</span> {h.result}
            </li>
          ))}
        </ol>
      </td>
    </tr>
  )
}

/**
 * Charges of every kind, with the steps taken and, while processing, buttons that finish them. A
 * checkout's attempts (charges whose `parent` is the checkout) are listed under its row; one the
 * filters keep while they leave its checkout out is listed alone, marked as an attempt.
 */
export const Charges: FC<{ s: DashboardSources; ns: string; f: Filters }> = ({ s, ns, f }) => {
  const list = s.charges.list(ns)
  const checkouts = new Map<string, CheckoutCharge>()
  for (const c of list) if (c.kind === 'checkout') checkouts.set(c.transaction_reference, c as CheckoutCharge)
  const shown = (c: ChargeBase): boolean => {
    if (chargeMatches(c, f)) return true
    // a checkout is found by its attempts' references too
    if (c.kind !== 'checkout' || !f.q || !chargeMatches(c, { ...f, q: undefined })) return false
    return s.checkout.attempts(ns, c as CheckoutCharge).some((a) => matchesRef(f.q, a.payment_reference, a.transaction_reference))
  }
  const shownCheckouts = new Set<string>()
  for (const c of checkouts.values()) if (shown(c)) shownCheckouts.add(c.transaction_reference)
  // top-level rows: every charge that is not an attempt of a checkout listed here
  const all = newestFirst(list.filter((c) => (c.kind === 'checkout' ? shownCheckouts.has(c.transaction_reference) : !(c.parent && shownCheckouts.has(c.parent)) && chargeMatches(c, f))))
  const top = all.slice(0, ROW_LIMIT)
  const rows = top.flatMap((c) => {
    if (c.kind === 'checkout') {
      const co = c as CheckoutCharge
      return [<ChargeRow s={s} c={c} />, ...s.checkout.attempts(ns, co).map((a) => <ChargeRow s={s} c={a} attempt={{ checkout: co, nested: true }} />)]
    }
    return [<ChargeRow s={s} c={c} attempt={c.parent ? { checkout: checkouts.get(c.parent), nested: false } : undefined} />]
  })
  return (
    <Table
      id="charges"
      caption="Charges, newest first; under each payment reference, its transaction reference and creation time; a checkout's attempts under it"
      head={['Reference', 'Kind', ['Amount', 'num'], 'Status and actions', 'Steps taken']}
      rows={rows}
      total={all.length}
      shown={top.length}
      empty="No charges match."
    />
  )
}
