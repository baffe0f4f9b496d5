import type { Frozen } from '../../store/frozen.js'
import type { FC } from 'hono/jsx'
import { CARD, type CardCharge } from '../../cards/index.js'
import { pendingStep } from './charges.js'
import { ActionButton, Badge, ROW_LIMIT, Table, enc, money, newestFirst, when } from '../../http/panel/ui.js'
import { matchesRef, type DashboardSources, type Filters } from './view.js'

/** Pre-authorizations: each one's ledger, and its captures, voids and refunds. */
export const Preauths: FC<{ s: DashboardSources; ns: string; f: Filters }> = ({ s, ns, f }) => {
  if (f.kind && f.kind !== CARD) return <p class="empty">Hidden by the kind filter.</p>
  const list = newestFirst(
    s.preauth
      .list(ns)
      .filter((c) => (!f.status || c.status === f.status) && (matchesRef(f.q, c.payment_reference, c.transaction_reference) || (c.preauth?.operations ?? []).some((r) => matchesRef(f.q, r)))),
  ).slice(0, ROW_LIMIT)
  if (!list.length) return <p class="empty" id="preauths">No pre-authorizations match.</p>
  return <div id="preauths">{list.map((c) => <Preauth s={s} ns={ns} c={c} />)}</div>
}

const Preauth: FC<{ s: DashboardSources; ns: string; c: Frozen<CardCharge> }> = ({ s, ns, c }) => {
  const l = c.preauth
  const rows = s.preauth.operationsOf(ns, c).map((o) => {
    const state = o.charge_operation === 'capture' ? s.preauth.captureState(ns, o) : undefined
    return (
      <tr data-ref={o.transaction_reference}>
        <td>{o.charge_operation.replace(/_/g, ' ')}</td>
        <td class="mono">{o.transaction_reference}</td>
        <td class="num">{money(o.amount, o.currency)}</td>
        <td>
          <Badge value={o.status} /> {state ? <Badge value={state} /> : ''}
        </td>
        <td class="num">{o.refunded ? money(o.refunded, o.currency) : ''}</td>
        <td class="mono">{o.target_transaction_reference ?? ''}</td>
        <td class="small">{when(o.created_at)}</td>
        <td>{state === 'unsettled' ? <ActionButton path={`/_sandbox/captures/${enc(o.transaction_reference)}/settle`} label="Settle" name={`Settle capture ${o.transaction_reference}`} /> : ''}</td>
      </tr>
    )
  })
  return (
    <article class="preauth" data-ref={c.payment_reference}>
      <h3>
        <span class="mono">{c.payment_reference}</span> <Badge value={c.status === 'success' && l ? l.state : c.status} />
      </h3>
      <p class="small muted" style="margin:0">
        {c.card.card_type} {c.card.first_six}****{c.card.last_four} · transaction <span class="mono">{c.transaction_reference}</span>
        {l ? ` · hold expires ${when(new Date(l.expires_at).toISOString())}` : ''}
        {l?.zero_auth ? ' · zero auth' : ''}
      </p>
      {l ? (
        <dl class="ledger">
          <div>
            <dt>Authorized</dt>
            <dd>{money(l.authorized, c.currency)}</dd>
          </div>
          <div>
            <dt>Captured</dt>
            <dd>{money(l.captured, c.currency)}</dd>
          </div>
          <div>
            <dt>Refunded</dt>
            <dd>{money(l.refunded, c.currency)}</dd>
          </div>
          <div>
            <dt>Left to capture</dt>
            <dd>{money(l.state === 'pre_authorized' ? l.authorized - l.captured : 0, c.currency)}</dd>
          </div>
        </dl>
      ) : (
        <p class="empty">No hold: {c.status === 'processing' ? `waiting for ${pendingStep(c) ?? 'its steps'}` : c.failure_message ?? c.status}.</p>
      )}
      {l ? (
        <Table
          id={`ops-${c.transaction_reference}`}
          caption={`Operations on ${c.payment_reference}`}
          head={['Operation', 'Transaction reference', ['Amount', 'num'], 'Status', ['Refunded', 'num'], 'Target', 'At', 'Actions']}
          rows={rows}
          total={rows.length}
          empty="No captures, voids or refunds yet."
        />
      ) : (
        ''
      )}
    </article>
  )
}
