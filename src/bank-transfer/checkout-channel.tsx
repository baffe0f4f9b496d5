import { amountSchema } from '../engine/schemas.js'
import { checkoutChannel } from '../engine/checkout-channel.js'
import { formatMoney } from '../money.js'
import { ActionForm, Alert, CHECKOUT_MSG } from '../checkout/index.js'
import type { BankTransferCharge, BankTransferService } from './service.js'

/**
 * Paying a checkout by bank transfer (docs/behaviour.md#checkout): an attempt is a temporary account
 * (the one under way is shown again rather than another opened); "I have sent the money" says what
 * arrives. When the checkout ends another way, no transfer arrives by itself any more.
 */

type BankAmount = 'exact' | 'less' | 'more'

/** The amounts "I have sent the money" offers: exact, half, or a tenth more (at least 1.00). */
function transferAmounts(expected: number): Record<BankAmount, number> {
  return { exact: expected, less: Math.max(1, Math.floor(expected / 2)), more: expected + Math.max(100, Math.round(expected / 10)) }
}

type Services = { bankTransfer: BankTransferService }

export const bankTransferChannel = checkoutChannel<Services, BankTransferCharge, undefined>({
  kind: 'bank_transfer',
  place: 2,
  currencies: ['NGN'],
  labels: {},
  read: () => undefined,
  start: ({ bankTransfer }, ns, o) =>
    bankTransfer.create(ns, {
      reference: o.reference,
      amount: o.amount,
      currency: o.currency,
      customer: o.customer,
      narration: o.description,
      account_name: o.merchant,
      merchant_bears_cost: o.merchant_bears_cost,
      metadata: o.metadata,
      parent: o.parent,
    }),
  keeps: (a) => a.status === 'processing',
  steps: {
    sent: (f) => {
      const amount = f.get('amount') || 'exact'
      if (amount !== 'exact' && amount !== 'less' && amount !== 'more') f.refuse('form', 'Choose the amount you sent')
      return { choice: amount as BankAmount }
    },
  },
  /** "I have sent the money": a transfer of `amount` (minor units; the expected amount when absent), or of the page's choice */
  step({ bankTransfer }, ns, a, _action, value) {
    const { amount, choice } = value as { amount?: number; choice?: BankAmount }
    return bankTransfer.credit(ns, a, choice ? transferAmounts(a.amount_expected)[choice] : amount)
  },
  Form: ({ base, currency, amount }) => (
    <ActionForm base={base} action="bank_transfer" button="Pay" label="Pay by bank transfer">
      <p>You will be shown an account to send {formatMoney(currency, amount)} to from your bank's app.</p>
    </ActionForm>
  ),
  Step: ({ base, errors, attempt: t }) => {
    const amounts = transferAmounts(t.amount_expected)
    const lastIn = t.transfers.at(-1)
    const money = (minor: number) => formatMoney(t.currency, minor)
    return (
      <>
        <Alert errors={{ form: errors.form }} />
        <TransferAccount
          base={base}
          a={{
            ...t.bank_account,
            amount: money(t.amount_expected),
            expires: t.bank_account.expiry_date_in_utc,
            amounts: { exact: money(amounts.exact), less: money(amounts.less), more: money(amounts.more) },
            short: lastIn?.payment_event === 'underpayment' ? `A transfer of ${money(lastIn.amount)} arrived, short of ${money(t.amount_expected)}: it was returned to you. Send the exact amount.` : undefined,
          }}
        />
      </>
    )
  },
  testValues: () => ({
    note: 'No transfer is sent: "I have sent the money" says what arrives, the amount expected, less or more.',
    values: [],
  }),
  payFields: { amount: amountSchema().optional() },
  payNote: 'A bank transfer arrives with `amount` (the expected amount when absent: less is returned and the checkout stays open, more is a success with the excess returned); with `outcome` `failed`, none arrives and the attempt fails.',
  pay(_s, _ns, input, want, drive) {
    drive.start(undefined)
    if (want === 'failed') drive.complete('failed')
    else drive.step('sent', { amount: input.amount as number | undefined })
  },
  stop({ bankTransfer }, ns, a) {
    if (!a.auto_timer) return null
    bankTransfer.stopAutoCompleteOf(ns, a.transaction_reference)
    return CHECKOUT_MSG.transferStopped(a.transaction_reference)
  },
})

interface AccountView {
  bank_name: string
  account_number: string
  account_name: string
  amount: string
  expires: string
  amounts: { exact: string; less: string; more: string }
  short?: string
}

/** The temporary account, and the button that says the money was sent. */
function TransferAccount({ base, a }: { base: string; a: AccountView }) {
  return (
    <>
      <h2>Send the money to this account</h2>
      {a.short ? <p class="note">{a.short}</p> : null}
      <dl aria-label="Account to pay">
        <dt>Bank</dt>
        <dd>{a.bank_name}</dd>
        <dt>Account number</dt>
        <dd>{a.account_number}</dd>
        <dt>Account name</dt>
        <dd>{a.account_name}</dd>
        <dt>Amount to send</dt>
        <dd>{a.amount}</dd>
        <dt>Expires</dt>
        <dd>
          <time datetime={a.expires}>{a.expires.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</time>
        </dd>
      </dl>
      <ActionForm base={base} action="sent" button="I have sent the money" label="Transfer sent">
        <fieldset class="choice">
          <legend>Amount sent (a simulation)</legend>
          <label>
            <input type="radio" name="amount" value="exact" checked /> Exact amount, {a.amounts.exact}
          </label>
          <label>
            <input type="radio" name="amount" value="less" /> Less, {a.amounts.less}
          </label>
          <label>
            <input type="radio" name="amount" value="more" /> More, {a.amounts.more}
          </label>
        </fieldset>
      </ActionForm>
    </>
  )
}

