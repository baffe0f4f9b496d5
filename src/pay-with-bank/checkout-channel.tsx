import { z } from '../zod-messages.js'
import { checkoutChannel, pickTestOf, type Want } from '../engine/checkout-channel.js'
import { bankPagePath } from './page.js'
import { invalid } from '../errors.js'
import { formatMoney } from '../money.js'
import type { Scenarios } from '../scenario/index.js'
import { ActionForm, Alert, AtTheBank } from '../checkout/index.js'
import { PWB_MSG } from './messages.js'
import type { PayWithBankCharge, PayWithBankService } from './service.js'

/**
 * Paying a checkout with bank (docs/behaviour.md#checkout): an attempt is a charge at the bank the
 * customer picks; they approve it at the bank's page, which sends them back to the checkout.
 */

const LABEL = { bank_code: 'Bank' }

type Services = { payWithBank: PayWithBankService; scenarios: Scenarios }

export const payWithBankChannel = checkoutChannel<Services, PayWithBankCharge, string>({
  kind: 'pay_with_bank',
  place: 4,
  currencies: ['NGN'],
  labels: LABEL,
  serviceFields: { bank_code: 'bank_code' },
  read: (form) => form.need('bank_code', /^\d{3,10}$/, 'must be one of the banks listed'),
  start: ({ payWithBank }, ns, o, bankCode) =>
    payWithBank.charge(ns, {
      reference: o.reference,
      amount: o.amount,
      currency: o.currency as 'NGN',
      bank_code: bankCode,
      customer: { name: o.customer.name ?? o.customer.email, email: o.customer.email },
      redirect_url: o.returnUrl,
      narration: o.description,
      merchant_bears_cost: o.merchant_bears_cost,
      metadata: o.metadata,
    }, o.parent),
  steps: {},
  /** the customer's choice at the bank's page */
  step: ({ payWithBank }, ns, a, _action, value) => payWithBank.decide(ns, a.transaction_reference, value as 'approve' | 'decline'),
  Form: ({ s, ns, base, errors, currency, amount }) => (
    <ActionForm base={base} action="pay_with_bank" button="Continue to your bank" label="Pay with bank">
      <p>You will approve {formatMoney(currency, amount)} at your bank.</p>
      <div>
        <label for="f-bank_code">{LABEL.bank_code}</label>
        <select id="f-bank_code" name="bank_code" required aria-invalid={errors.bank_code ? 'true' : undefined} aria-describedby={errors.bank_code ? 'e-bank_code' : undefined}>
          {s.payWithBank.banks(ns, currency).map((b) => (
            <option value={b.bank_code}>{b.name}</option>
          ))}
        </select>
        {errors.bank_code ? (
          <p class="err" id="e-bank_code">
            {errors.bank_code}
          </p>
        ) : null}
      </div>
    </ActionForm>
  ),
  Step: ({ ns, base, errors, attempt: a }) => (
    <>
      <Alert errors={{ form: errors.form }} />
      <AtTheBank bank={a.bank.name} page={bankPagePath(a.transaction_reference, ns)} base={base} />
    </>
  ),
  testValues: (pack, currency) => ({
    note: "Choose a bank, then approve or decline on the bank's page; approved, the payment ends as its bank says.",
    values: [...pack.banks.values()].filter((b) => b.currency === currency).map((b) => ({ value: `${b.name} (${b.bank_code})`, what: b.label })),
  }),
  /** the bank the customer picks (the first of the packs' that ends as `outcome` when absent) */
  payFields: { bank_code: z.string().min(1).optional() },
  payNote: "Pay with bank is approved at `bank_code` (the packs' first bank of the currency that ends as `outcome` when absent).",
  pay({ scenarios }, ns, input, want, drive) {
    drive.start((input.bank_code as string | undefined) ?? testBank(scenarios, ns, drive.currency, want))
    drive.step('bank', 'approve')
  },
})

function testBank(scenarios: Scenarios, ns: string, currency: string, want: Want): string {
  const pick = pickTestOf(scenarios.forNs(ns).banks.values(), currency, want)
  if (!pick) throw invalid({ bank_code: PWB_MSG.noTestBank(currency, want) })
  return pick.bank_code
}
