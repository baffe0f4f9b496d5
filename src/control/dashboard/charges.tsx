import type { Frozen } from '../../store/frozen.js'
import type { FC } from 'hono/jsx'
import type { ChargeBase } from '../../engine/types.js'
import type { CardCharge } from '../../cards/index.js'
import { threeDsPagePath } from '../../cards/index.js'
import type { CheckoutCharge } from '../../checkout/index.js'
import type { MobileMoneyCharge } from '../../mobile-money/index.js'
import { CheckoutStatus, attemptLabel } from './checkouts.js'
import { ActionButton, Badge, ROW_LIMIT, Table, enc, money, newestFirst, when } from '../../http/panel/ui.js'
import { chargeMatches, matchesRef, type DashboardSources, type Filters } from './view.js'

/** The step a processing charge waits for (3DS, OTP, STK_PROMPT...). */
export function pendingStep(c: Frozen<ChargeBase>): string | undefined {
  if (c.status !== 'processing') return undefined
  const steps = (c as Frozen<CardCharge | MobileMoneyCharge>).pending_steps as readonly string[] | undefined
  return steps?.[0]
}

/** Where an attempt's row sits: nested under its checkout's row, or alone (marked) when the filters leave its checkout out. */
interface AttemptOf {
  checkout: Frozen<CheckoutCharge> | undefined
  nested: boolean
}

const ChargeRow: FC<{ s: DashboardSources; ns: string; c: Frozen<ChargeBase>; attempt?: AttemptOf }> = ({ s, ns, c, attempt }) => {
  const step = pendingStep(c)
  const tx = c.transaction_reference
  const kind = s.kinds.of(c.kind)
  const checkout = s.checkout.is(c) ? c : undefined
  const waiting = step ?? (c.status === 'processing' ? kind.waiting : undefined)
  return (
    <tr data-ref={c.payment_reference} data-kind={c.kind} data-status={c.status} data-parent={attempt ? c.parent : undefined} class={attempt?.nested ? 'attempt nested' : attempt ? 'attempt' : undefined}>
      <td class="ref">
        {attempt ? <span class="sub attempt-of">{attemptLabel(attempt.checkout, c)}</span> : ''}
        <span class="mono strong">{c.payment_reference}</span>
        <span class="sub mono">{tx}</span>
        <span class="sub">{when(c.created_at)}</span>
      </td>
      <td class="wrap-s">
        {kind.label}
        {kind.instrument(c).map((line) => (
          <span class="sub mono">{line}</span>
        ))}
      </td>
      <td class="num">{money(c.amount, c.currency)}</td>
      <td class="wrap-s">
        <Badge value={c.status} />
        {checkout ? (
          <CheckoutStatus s={s} ns={ns} c={checkout} />
        ) : (
          <>
            {c.failure_message ? <div class="small muted">{c.failure_message}</div> : ''}
            {waiting ? <div class="small">waiting for {waiting}</div> : ''}
            {c.status === 'processing' ? (
              <div class="actions" style="margin-top:4px">
                <ActionButton path={`/_sandbox/charges/${enc(tx)}/complete`} body={{ outcome: 'success' }} label="Succeed" name={`Complete ${c.payment_reference} as success`} />
                <ActionButton path={`/_sandbox/charges/${enc(tx)}/complete`} body={{ outcome: 'failed' }} label="Fail" cls="danger" name={`Complete ${c.payment_reference} as failed`} />
                {step === '3DS' ? (
                  <a class="small" href={threeDsPagePath(tx, ns)} target="_blank" rel="noopener">
                    Open the 3DS page
                  </a>
                ) : (
                  ''
                )}
              </div>
            ) : (
              ''
            )}
            {c.status === 'success' && !c.parent && !(c as Frozen<CardCharge>).preauth ? (
              <div class="actions" style="margin-top:4px">
                <ActionButton path={`/_sandbox/charges/${enc(tx)}/chargeback`} body={{}} label="Chargeback" cls="danger" name={`Open a chargeback on ${c.payment_reference}`} />
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
  const checkouts = new Map<string, Frozen<CheckoutCharge>>()
  for (const c of list) if (s.checkout.is(c)) checkouts.set(c.transaction_reference, c)
  const shown = (c: Frozen<ChargeBase>): boolean => {
    if (chargeMatches(c, f)) return true
    // a checkout is found by its attempts' references too
    if (!s.checkout.is(c) || !f.q || !chargeMatches(c, { ...f, q: undefined })) return false
    return s.checkout.attempts(ns, c).some((a) => matchesRef(f.q, a.payment_reference, a.transaction_reference))
  }
  const shownCheckouts = new Set<string>()
  for (const c of checkouts.values()) if (shown(c)) shownCheckouts.add(c.transaction_reference)
  // top-level rows: every charge that is not an attempt of a checkout listed here
  const all = newestFirst(list.filter((c) => (s.checkout.is(c) ? shownCheckouts.has(c.transaction_reference) : !(c.parent && shownCheckouts.has(c.parent)) && chargeMatches(c, f))))
  const top = all.slice(0, ROW_LIMIT)
  const rows = top.flatMap((c) => {
    if (s.checkout.is(c)) {
      return [<ChargeRow s={s} ns={ns} c={c} />, ...s.checkout.attempts(ns, c).map((a) => <ChargeRow s={s} ns={ns} c={a} attempt={{ checkout: c, nested: true }} />)]
    }
    return [<ChargeRow s={s} ns={ns} c={c} attempt={c.parent ? { checkout: checkouts.get(c.parent), nested: false } : undefined} />]
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
