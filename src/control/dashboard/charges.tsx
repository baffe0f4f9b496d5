import type { FC } from 'hono/jsx'
import type { CardCharge, ChargeBase } from '../../charges/types.js'
import type { DirectDebit } from '../../direct-debit/service.js'
import type { MobileMoneyCharge } from '../../mobile-money/service.js'
import { ActionButton, Badge, ROW_LIMIT, Table, enc, money, newestFirst, when } from './ui.js'
import { chargeMatches, type DashboardSources, type Filters } from './view.js'

/** The card, wallet or account a charge was made with (a card masked as first six****last four). */
function instrument(c: ChargeBase): string {
  if (c.kind === 'card') {
    const card = (c as CardCharge).card
    return `${card.card_type} ${card.first_six}****${card.last_four}`
  }
  if (c.kind === 'mobile_money') return `wallet ${(c as MobileMoneyCharge).wallet.number}`
  const d = c as DirectDebit
  return `account ${d.account_number} (${d.authorization_code})`
}

/** The step a processing charge waits for (3DS, OTP, STK_PROMPT...). */
export function pendingStep(c: ChargeBase): string | undefined {
  if (c.status !== 'processing') return undefined
  const steps = (c as CardCharge | MobileMoneyCharge).pending_steps as string[] | undefined
  return steps?.[0]
}

/** Charges of every kind, with the steps taken and, while processing, buttons that finish them. */
export const Charges: FC<{ s: DashboardSources; ns: string; f: Filters }> = ({ s, ns, f }) => {
  const all = newestFirst(s.charges.list(ns).filter((c) => chargeMatches(c, f)))
  const rows = all.slice(0, ROW_LIMIT).map((c) => {
    const step = pendingStep(c)
    const tx = c.transaction_reference
    return (
      <tr data-ref={c.payment_reference} data-kind={c.kind} data-status={c.status}>
        <td class="ref">
          <span class="mono strong">{c.payment_reference}</span>
          <span class="sub mono">{tx}</span>
          <span class="sub">{when(c.created_at)}</span>
        </td>
        <td class="wrap-s">
          {c.kind.replace('_', ' ')}
          <span class="sub mono">{instrument(c)}</span>
        </td>
        <td class="num">{money(c.amount, c.currency)}</td>
        <td class="wrap-s">
          <Badge value={c.status} />
          {c.failure_message ? <div class="small muted">{c.failure_message}</div> : ''}
          {step ? <div class="small">waiting for {step}</div> : ''}
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
  })
  return (
    <Table
      id="charges"
      caption="Charges, newest first; under each payment reference, its transaction reference and creation time"
      head={['Reference', 'Kind', ['Amount', 'num'], 'Status and actions', 'Steps taken']}
      rows={rows}
      total={all.length}
      empty="No charges match."
    />
  )
}
