import { z } from '../zod-messages.js'
import { checkoutChannel, type FieldTexts, pickTestOf, type Want } from '../engine/checkout-channel.js'
import { walletPagePath } from './page.js'
import { badRequest, invalid } from '../errors.js'
import { formatMoney } from '../money.js'
import { WALLET_CURRENCIES, walletCurrency } from '../scenario/lookups.js'
import type { Scenarios } from '../scenario/index.js'
import type { Frozen } from '../store/frozen.js'
import { ActionForm, Alert, AtTheBank, Field, Waiting } from '../checkout/index.js'
import { MM_MSG } from './messages.js'
import { walletNumberIssue } from './schemas.js'
import type { MobileMoneyCharge, MobileMoneyService } from './service.js'

/**
 * Paying a checkout from a mobile-money wallet (docs/behaviour.md#checkout): an attempt is a
 * mobile-money charge with the wallet's step (OTP, the prompt's PIN, or the operator's page).
 */

const LABEL = { phone: 'Phone number', pin: 'PIN', otp: 'OTP' }

/** the form of a wallet number in the currency (fixtures/lookups.json): its country code, then zeros */
const walletPlaceholder = (currency: string): string => {
  const w = walletCurrency(currency)
  return w ? w.dial_code + '0'.repeat(w.digits) : ''
}

type Services = { mobileMoney: MobileMoneyService; scenarios: Scenarios }

export const mobileMoneyChannel = checkoutChannel<Services, MobileMoneyCharge, string>({
  kind: 'mobile_money',
  place: 3,
  // the wallet currencies of fixtures/lookups.json
  currencies: WALLET_CURRENCIES,
  labels: LABEL,
  serviceFields: { 'mobile_money.number': 'phone', currency: 'phone' },
  read(form, currency) {
    form.echo('phone')
    const number = form.need('phone', /^\+?\d{10,15}$/, 'must be the wallet number in international format, digits only', true).replace(/^\+/, '')
    const issue = form.refused('phone') ? null : walletNumberIssue(currency, number)
    if (issue) form.refuse('phone', `Phone number ${issue}`)
    return number
  },
  start({ mobileMoney }, ns, o, number) {
    const issue = walletNumberIssue(o.currency, number)
    if (issue) throw invalid({ 'mobile_money.number': issue })
    return mobileMoney.charge(ns, {
      reference: o.reference,
      amount: o.amount,
      currency: o.currency,
      customer: o.customer,
      mobile_money: { number },
      merchant_bears_cost: o.merchant_bears_cost,
      description: o.description,
      metadata: o.metadata,
    }, o.parent)
  },
  steps: {
    otp: (f) => f.need('otp', /^\d{4,8}$/, 'must be 4-8 digits'),
    prompt: (f) => f.need('pin', /^\d{4}$/, 'must be 4 digits'),
  },
  step({ mobileMoney }, ns, a, action, value) {
    const tx = a.transaction_reference
    if (action === 'otp') {
      // a wrong OTP, which the API answers with the charge, is the page's refusal
      const charge = mobileMoney.authorize(ns, tx, value as string)
      if (charge.otp_rejected) throw badRequest(MM_MSG.OTP_INVALID)
      return charge
    }
    if (action === 'prompt') return mobileMoney.authorizeStk(ns, tx, value as string)
    // the customer's choice on the operator's page (a wallet's REDIRECT step)
    return mobileMoney.decide(ns, tx, value as 'approve' | 'decline')
  },
  Form: ({ base, errors, echo, currency }) => (
    <ActionForm base={base} action="mobile_money" button="Pay" label="Pay by mobile money">
      <p>Enter the number of the {currency} mobile-money wallet to pay from.</p>
      <Field name="phone" label={LABEL.phone} errors={errors} echo={echo} type="tel" autocomplete="tel" inputmode="tel" placeholder={walletPlaceholder(currency)} />
    </ActionForm>
  ),
  Step: ({ ns, base, errors, currency, merchant, attempt: a }) => {
    const phone = `+${a.wallet.number}`
    const step = a.pending_steps[0]
    const left = a.otp_rejected ? `Attempts left: ${a.otp_attempts_left}.` : null
    return (
      <>
        <Alert errors={{ form: errors.form }} notice={errors.form ? left : null} />
        {step === 'OTP' ? (
          <WalletOtp base={base} phone={phone} errors={errors} />
        ) : step === 'STK_PROMPT' ? (
          <WalletPrompt base={base} phone={phone} amount={formatMoney(currency, a.amount_expected)} merchant={merchant} errors={errors} />
        ) : step === 'REDIRECT' ? (
          <AtTheBank bank="your mobile money operator" page={walletPagePath(a.transaction_reference, ns)} base={base} />
        ) : (
          <Waiting what="Waiting for your wallet to answer." base={base} />
        )}
      </>
    )
  },
  testValues: (pack, currency) => ({
    note: `Wallets of ${currency}: the prompt's PIN is ${pack.settings.pin}, the OTP ${pack.settings.otp}, unless a wallet says otherwise.`,
    values: [...pack.wallets.values()].filter((w) => w.currency === currency).map((w) => ({ value: w.number, what: w.label })),
  }),
  payFields: { mobile_money: z.object({ number: z.string().regex(/^\+?\d{10,15}$/, 'must be the wallet number in international format, digits only') }).optional() },
  payNote: "By mobile money: `mobile_money`, or the first test wallet of the currency that ends as `outcome`, its step answered (the operator's page approved).",
  pay({ scenarios }, ns, input, want, drive) {
    const pack = scenarios.forNs(ns)
    const currency = drive.currency
    const number = (input.mobile_money as { number: string } | undefined)?.number ?? testWallet(scenarios, ns, currency, want)
    const wallet = pack.wallet(number.replace(/^\+/, ''))
    let child: Frozen<MobileMoneyCharge> = drive.start(number)
    if (child.status === 'processing' && child.pending_steps[0] === 'OTP') child = drive.step('otp', wallet?.otp ?? pack.settings.otp)
    if (child.status === 'processing' && child.pending_steps[0] === 'STK_PROMPT') drive.step('prompt', wallet?.pin ?? pack.settings.pin)
    else if (child.status === 'processing' && child.pending_steps[0] === 'REDIRECT') drive.step('operator', 'approve')
  },
})

/** The pack's first wallet of the currency that ends as `want`. */
function testWallet(scenarios: Scenarios, ns: string, currency: string, want: Want): string {
  const pick = pickTestOf(scenarios.forNs(ns).wallets.values(), currency, want)
  if (!pick) throw invalid({ mobile_money: MM_MSG.noTestWallet(currency, want) })
  return pick.number
}

/** The wallet's prompt, as the customer's phone would show it. */
function WalletPrompt({ base, phone, amount, merchant, errors }: { base: string; phone: string; amount: string; merchant: string; errors: FieldTexts }) {
  return (
    <>
      <h2>Approve on your phone</h2>
      <p>A prompt was sent to {phone}. On a real phone it pops up; here it is simulated below.</p>
      <div class="phone" role="group" aria-label="Phone prompt">
        <p>
          Pay <strong>{amount}</strong> to <strong>{merchant}</strong>? Enter your wallet PIN to approve.
        </p>
        <ActionForm base={base} action="prompt" button="Approve" label="Wallet PIN">
          <Field name="pin" label={LABEL.pin} errors={errors} type="password" inputmode="numeric" maxlength={4} />
        </ActionForm>
      </div>
    </>
  )
}

function WalletOtp({ base, phone, errors }: { base: string; phone: string; errors: FieldTexts }) {
  return (
    <ActionForm base={base} action="otp" label="Wallet OTP">
      <h2>Enter the OTP</h2>
      <p>An OTP was sent to {phone}.</p>
      <Field name="otp" label={LABEL.otp} errors={errors} type="password" autocomplete="one-time-code" inputmode="numeric" maxlength={8} />
    </ActionForm>
  )
}
