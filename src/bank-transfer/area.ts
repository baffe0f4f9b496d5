import type { Kit } from '../engine/kit.js'
import { servedBy } from '../engine/kinds.js'
import { chargeKind } from '../engine/types.js'
import { MINOR, STRING, listOf, maybe, shape } from '../store/validate.js'
import { CURRENCY } from '../scenario/lookups.js'
import { when } from '../clock.js'
import type { Area } from '../http/area.js'
import { formatMoney } from '../money.js'
import { readJsonObject } from '../http/body.js'
import { validateWithMetadata } from '../engine/schemas.js'
import { ok } from '../http/envelope.js'
import { bankTransferSchema } from './schemas.js'
import { TRANSFER_MSG } from './messages.js'
import { BankTransferService, type BankTransferCharge } from './service.js'
import { chargesOf, distinct } from '../engine/outcomes.js'
import type { Outcome } from '../http/area.js'
import type { TRANSFER_ARRIVALS } from '../scenario/schema.js'
// its checkout channel, declared beside it: the checkout offers it (src/engine/checkout-channel.ts)
import './checkout-channel.js'
import { bankTransferSettings } from './settings.js'

/** its kind of charge, declared to the engine (`ChargeKinds`, src/engine/types.ts) */
declare module '../engine/types.js' {
  interface ChargeKinds { bank_transfer: { record: BankTransferCharge; method: 'bank_transfer'; attempt: 'bank_transfer' } }
}

/** Its temporary account and what it waits for, as the dashboard lists them. */
function transferLines(c: BankTransferCharge): string[] {
  const a = c.bank_account
  const lines = [`account ${a.account_number}`, `${a.bank_name} (${a.bank_code}), ${a.account_name}`, `expects ${formatMoney(c.currency, c.amount_expected)}`, `account expires ${when(a.expiry_date_in_utc)}`]
  const last = c.transfers.at(-1)
  if (last) lines.push(`last transfer ${formatMoney(c.currency, last.amount)} (${last.payment_event}${last.reversal ? `, ${formatMoney(c.currency, last.reversal.amount)} returned` : ''})`)
  return lines
}

/** The outcome of each way a transfer arrives, and the way a transfer that arrived was taken. */
const ARRIVAL: Record<(typeof TRANSFER_ARRIVALS)[number], Outcome> = {
  exact: { id: 'bank-transfer.exact', label: 'the exact amount arrived' },
  short: { id: 'bank-transfer.underpaid', label: 'less than expected arrived' },
  over: { id: 'bank-transfer.overpaid', label: 'more than expected arrived' },
  never: { id: 'bank-transfer.expired', label: 'nothing arrived: the account expired' },
}
const PAID_AS = { exact: 'exact', underpayment: 'short', overpayment: 'over' } as const

/** POST /merchant/api/v1/charges/bank-transfer (docs/behaviour.md#bank-transfer) */
export const bankTransferArea: Area<{ bankTransfer: BankTransferService }, Kit> = {
  key: 'bank transfer',
  settings: bankTransferSettings,
  outcomes: {
    // how the pack's amounts arrive (docs/behaviour.md#bank-transfer), and the exact amount any other does
    list: (s) => distinct([ARRIVAL.exact, ...[...s.transfers.values()].map((t) => ARRIVAL[t.arrives])]),
    *met(s, ns) {
      for (const c of chargesOf<BankTransferCharge>(s.store, ns, 'bank_transfer')) {
        // as a restored snapshot may hold it: an event of another name meets nothing
        for (const t of c.transfers) if (Object.hasOwn(PAID_AS, t.payment_event)) yield [ARRIVAL[PAID_AS[t.payment_event]].id, c.payment_reference]
        if (c.status === 'expired') yield [ARRIVAL.never.id, c.payment_reference]
      }
    },
  },
  tags: { 'bank transfer': 'Bank transfer pay-ins to a temporary account (NGN)' },
  collections: [
    chargeKind('bank_transfer', {
      bank_account: shape({ account_name: STRING, account_number: STRING, bank_name: STRING, bank_code: STRING, expiry_date_in_utc: STRING }),
      amount_expected: MINOR,
      amount_paid: MINOR,
      amount_accepted: MINOR,
      transfers: listOf({ at: STRING, amount: MINOR, payment_event: STRING, reversal: maybe(shape({ status: STRING, amount: MINOR, destination: STRING, currency: CURRENCY })) }),
    }, {
      asWritten: ['bank_account.account_number'],
      // a transfer arrives at its temporary account (`BankTransferService.credit`)
      indexes: { account_number: (c) => c.bank_account?.account_number },
    }),
  ],
  build(kit) {
    const bankTransfer = new BankTransferService(kit)
    kit.kinds.declare<BankTransferCharge>({
      // the live test environment shows the balance right after the transfer (docs/behaviour.md#ledger-and-balances)
      settlesAtOnce: true,
      ...servedBy(bankTransfer),
      attemptLine: (charge) => TRANSFER_MSG.attempt(charge.bank_account.account_number),
      instrument: transferLines,
      waiting: 'a transfer',
    })
    return { bankTransfer }
  },
  routes: [
    {
      method: 'post', path: '/merchant/api/v1/charges/bank-transfer', access: 'secret key', tag: 'bank transfer', operationId: 'chargeBankTransfer',
      summary: 'Issue a temporary account the customer transfers to (NGN)', body: { name: 'BankTransferRequest', schema: bankTransferSchema },
      description: 'The charge is processing until a transfer arrives: by itself 120 s later on the namespace clock (unless `auto_complete` is false, or the pack says otherwise for the amount), or by the sandbox credit call. Less than expected is returned and the charge waits; more succeeds with the excess returned. The account expires after 30 minutes.',
      handler: async (c, { bankTransfer, namespaces, scenarios }) => {
        const ns = c.get('ns')
        const input = validateWithMetadata(bankTransferSchema, await readJsonObject(c), scenarios.forNs(ns).metadataUnderscores)
        // the account is in the merchant's name unless the request names it
        const charge = bankTransfer.create(ns, { ...input, account_name: input.account_name ?? namespaces.get(ns)?.name ?? 'Sandbox Merchant' })
        return ok(c, TRANSFER_MSG.INITIATED, bankTransfer.responseData(charge))
      },
    },
  ],
}
