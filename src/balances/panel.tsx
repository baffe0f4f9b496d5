import type { Panel } from '../http/area.js'
import type { FC } from 'hono/jsx'
import { OPENING_SOURCE } from '../engine/ledger.js'
import { listTime } from '../http/cursor-list.js'
import { ActionButton, Table, money } from '../http/panel/ui.js'
import type { BalanceService } from './service.js'

/** history entries shown, the newest */
const HISTORY_SHOWN = 10
/** what the fund button adds, major units */
const FUND_AMOUNT = 10_000

/**
 * The merchant's balances and their history (docs/behaviour.md#ledger-and-balances), as `GET /balances` and
 * `GET /balances/history` answer them: per currency the available and pending balance with a
 * button that funds it (the control call), then the newest entries of the history.
 */
export const Balances: FC<{ s: { balances: Pick<BalanceService, 'held' | 'historyPage'> }; ns: string }> = ({ s, ns }) => {
  const held = Object.entries(s.balances.held(ns))
  const rows = held.map(([currency, b]) => (
    <tr data-currency={currency}>
      <td class="mono strong">{currency}</td>
      <td class="num">{money(b.available, currency)}</td>
      <td class="num">{money(b.pending, currency)}</td>
      <td>
        <div class="actions">
          <ActionButton
            path="/_sandbox/balances/fund"
            body={{ currency, amount: FUND_AMOUNT }}
            label={`Fund ${FUND_AMOUNT.toLocaleString('en')}`}
            name={`Fund the ${currency} balance with ${currency} ${FUND_AMOUNT.toLocaleString('en')}`}
          />
        </div>
      </td>
    </tr>
  ))
  const history = s.balances.historyPage(ns, { limit: HISTORY_SHOWN })
  const entries = history.rows.map(({ row, entry }) => (
    <tr data-pointer={row.pointer} data-direction={row.direction}>
      {/* the API dates an opening balance 1970-01-01 (before anything); a person reads "opening" */}
      <td class="mono">{entry.source === OPENING_SOURCE ? 'opening' : listTime(entry.available_at)}</td>
      <td class="wrap-s">
        {entry.description}
        <span class="sub mono">
          {entry.source} · {entry.source_reference}
        </span>
      </td>
      <td class="num">
        {row.direction === 'debit' ? '-' : '+'}
        {money(row.amount, row.currency)}
      </td>
      <td class="num">{money(row.after, row.currency)}</td>
    </tr>
  ))
  return (
    <>
      <Table id="balances" caption="Balances" head={['Currency', ['Available', 'num'], ['Pending', 'num'], 'Actions']} rows={rows} total={rows.length} empty="No balances." />
      <h3>History</h3>
      <Table
        id="balance-history"
        caption={history.has_more ? `Balance history, the newest ${HISTORY_SHOWN} (GET /merchant/api/v1/balances/history lists them all)` : 'Balance history'}
        head={['Available at', 'Entry', ['Amount', 'num'], ['Balance after', 'num']]}
        rows={entries}
        total={entries.length}
        empty="No entries yet."
      />
    </>
  )
}

/** Its panel of the dashboard (`Area.panels`). */
export const balancesPanel: Panel<{ balances: Pick<BalanceService, 'held' | 'historyPage'> }> = { id: 'balances', title: 'Balances', jump: 'Balances', place: 20, body: (s, ns) => <Balances s={s} ns={ns} /> }
