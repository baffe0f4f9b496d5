import { z } from '../zod-messages.js'
import { checkoutChannel, type FieldTexts, type Want } from '../engine/checkout-channel.js'
import { threeDsPagePath } from './three-ds.js'
import type { CardCharge } from './types.js'
import { invalid } from '../errors.js'
import type { Scenarios } from '../scenario/index.js'
import type { Frozen } from '../store/frozen.js'
import { ActionForm, Alert, Field, Waiting } from '../checkout/index.js'
import { CARD_MSG } from './messages.js'
import { CARD_FORMAT, type AuthorizeInput } from './schemas.js'
import type { CardService } from './service.js'

/**
 * Paying a checkout by card (docs/behaviour.md#checkout): an attempt is a card charge of the
 * checkout's amount with the card's steps (PIN, OTP, address, phone; 3DS on its own page, which
 * sends the customer back to the checkout).
 */

/** the card the page or the control call gives */
export interface CheckoutCard {
  number: string
  cvv: string
  expiry_month: string
  expiry_year: string
  pin?: string
}

const cardSchema = z.object({
  number: z.string().regex(CARD_FORMAT.number, 'must be 12-19 digits'),
  cvv: z.string().regex(CARD_FORMAT.cvv, 'must be 3 or 4 digits'),
  expiry_month: z.string().regex(CARD_FORMAT.expiry_month, 'must be 2 digits, 01-12'),
  expiry_year: z.string().regex(CARD_FORMAT.expiry_year, 'must be 2 or 4 digits'),
  pin: z.string().regex(CARD_FORMAT.pin, 'must be 4 digits').optional(),
})

const LABEL = {
  card_number: 'Card number',
  expiry: 'Expiry',
  cvv: 'CVV',
  pin: 'PIN',
  otp: 'OTP',
  phone: 'Phone number',
  address: 'Address',
  city: 'City',
  state: 'State',
  zip_code: 'Postal code',
  country: 'Country',
}

/** what the scripted customer answers at the steps that ask for details */
const ADDRESS = { state: 'Lagos', city: 'Lekki', country: 'NG', address: '1 Sandbox Road', zip_code: '100001' }
const PHONE = '+2348000000000'

/** The first card that ends as `want`, without steps when there is one (`sandbox magic` shows it too). */
export function pickTestCard<C extends { outcome: string; steps: readonly string[] }>(cards: Iterable<C>, want: Want): C | undefined {
  const ending = [...cards].filter((s) => s.outcome === want)
  return ending.find((s) => s.steps.length === 0) ?? ending[0]
}

type Services = { cards: CardService; scenarios: Scenarios }

export const cardChannel = checkoutChannel<Services, CardCharge, CheckoutCard>({
  kind: 'card',
  place: 1,
  // an open checkout shows its fee by the card's rule (docs/behaviour.md#checkout)
  pricesCheckouts: true,
  currencies: ['NGN', 'USD'],
  labels: LABEL,
  serviceFields: {
    'card.number': 'card_number',
    'card.expiry_year': 'expiry',
    'card.expiry_month': 'expiry',
    'card.cvv': 'cvv',
    'authorization.pin': 'pin',
    'authorization.otp': 'otp',
    'authorization.phone': 'phone',
  },
  read(form) {
    form.echo('card_number')
    form.echo('expiry')
    const number = form.need('card_number', CARD_FORMAT.number, 'must be 12-19 digits', true)
    const expiry = form.need('expiry', /^(0[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/, 'must be MM/YY, e.g. 09/30')
    const cvv = form.need('cvv', CARD_FORMAT.cvv, 'must be 3 or 4 digits')
    const [month, year] = expiry.split('/').map((s) => s.trim())
    return { number, cvv, expiry_month: month, expiry_year: year }
  },
  start: ({ cards }, ns, o, card) =>
    cards.charge(ns, {
      reference: o.reference,
      card,
      amount: o.amount,
      currency: o.currency as 'NGN',
      customer: o.customer,
      metadata: o.metadata,
      description: o.description,
      // the 3DS page sends the customer back to the checkout
      redirect_url: o.returnUrl,
    }, 'charge', o.parent),
  steps: {
    pin: (f) => ({ pin: f.need('pin', CARD_FORMAT.pin, 'must be 4 digits') }),
    otp: (f) => ({ otp: f.need('otp', /^\d{4,8}$/, 'must be 4-8 digits') }),
    avs: (f) => {
      const avs = { address: '', city: '', state: '', zip_code: '', country: '' }
      for (const k of Object.keys(avs) as (keyof typeof avs)[]) {
        f.echo(k)
        avs[k] = f.need(k, /^.{1,100}$/, 'must be at most 100 characters')
      }
      return { avs }
    },
    phone: (f) => {
      f.echo('phone')
      return { phone: f.need('phone', /^\+?\d{7,15}$/, 'must be a phone number in international format', true) }
    },
  },
  step({ cards }, ns, a, action, value) {
    // the cardholder's choice on the 3DS page (the scripted customer's)
    if (action === '3ds') return cards.decide3ds(ns, a.transaction_reference, value as 'approve' | 'decline')
    return cards.authorize(ns, { transaction_reference: a.transaction_reference, authorization: value as AuthorizeInput['authorization'] })
  },
  Form: ({ base, errors, echo }) => (
    <ActionForm base={base} action="card" button="Pay" label="Pay by card">
      <Field name="card_number" label={LABEL.card_number} errors={errors} echo={echo} autocomplete="cc-number" inputmode="numeric" placeholder="0000 0000 0000 0000" maxlength={23} />
      <div class="row">
        <Field name="expiry" label={LABEL.expiry} errors={errors} echo={echo} autocomplete="cc-exp" inputmode="numeric" placeholder="MM/YY" maxlength={7} />
        <Field name="cvv" label={LABEL.cvv} errors={errors} type="password" autocomplete="cc-csc" inputmode="numeric" placeholder="123" maxlength={4} />
      </div>
    </ActionForm>
  ),
  Step: ({ ns, base, errors, echo, attempt: a }) => (
    <>
      <Alert errors={{ form: errors.form }} />
      <CardStepForm base={base} step={a.pending_steps[0] ?? ''} card={`${a.card.card_type.toUpperCase()} •••• ${a.card.last_four}`} errors={errors} echo={echo} threeDs={threeDsPagePath(a.transaction_reference, ns)} />
    </>
  ),
  testValues: (pack) => ({
    note: `Any future expiry date works. Asked for a PIN, ${pack.settings.pin}; an OTP, ${pack.settings.otp}.`,
    values: [...pack.cards.values()].map((c) => ({ value: c.number, what: `CVV ${c.cvv}: ${c.label}` })),
  }),
  payFields: { card: cardSchema.optional() },
  payNote: 'By card: `card`, or the first test card that ends as `outcome`, its steps answered (the 3DS page approved).',
  pay({ scenarios }, ns, input, want, drive) {
    const pack = scenarios.forNs(ns)
    const card = (input.card as CheckoutCard | undefined) ?? testCard(scenarios, ns, want)
    // the card's own PIN and OTP when the packs list it, else the pack's
    const listed = pack.card(card.number)
    const pin = listed?.pin ?? pack.settings.pin
    const otp = listed?.otp ?? pack.settings.otp
    let child: Frozen<CardCharge> = drive.start(card)
    for (let guard = 0; child.status === 'processing' && child.pending_steps.length && guard < 8; guard++) {
      const step = child.pending_steps[0]
      if (step === '3DS') child = drive.step('3ds', 'approve')
      else if (step === 'PIN') child = drive.step('pin', { pin })
      else if (step === 'OTP') child = drive.step('otp', { otp })
      else if (step === 'AVS') child = drive.step('avs', { avs: ADDRESS })
      else child = drive.step('phone', { phone: PHONE })
    }
  },
})

/** The pack's first card that ends as `want` (without steps when there is one), with its details. */
function testCard(scenarios: Scenarios, ns: string, want: Want): CheckoutCard {
  const pick = pickTestCard(scenarios.forNs(ns).cards.values(), want)
  if (!pick) throw invalid({ card: CARD_MSG.noTestCard(want) })
  return { number: pick.number, cvv: pick.cvv, expiry_month: pick.expiry_month, expiry_year: pick.expiry_year }
}

/** The step a card attempt waits for (docs/behaviour.md#card-charges): one field, or the address, or the 3DS link. */
function CardStepForm({ base, step, card, errors, echo, threeDs }: { base: string; step: string; card: string; errors: FieldTexts; echo: FieldTexts; threeDs: string }) {
  if (step === 'PIN')
    return (
      <ActionForm base={base} action="pin" label="Card PIN">
        <h2>Enter your card PIN</h2>
        <p>Card {card}</p>
        <Field name="pin" label={LABEL.pin} errors={errors} type="password" inputmode="numeric" maxlength={4} />
      </ActionForm>
    )
  if (step === 'OTP')
    return (
      <ActionForm base={base} action="otp" label="One-time password">
        <h2>Enter the OTP</h2>
        <p>Enter the OTP sent to the phone number or e-mail tied to card {card}.</p>
        <Field name="otp" label={LABEL.otp} errors={errors} type="password" autocomplete="one-time-code" inputmode="numeric" maxlength={8} />
      </ActionForm>
    )
  if (step === 'AVS')
    return (
      <ActionForm base={base} action="avs" label="Billing address">
        <h2>Billing address</h2>
        <p>Your bank asks for the billing address of card {card}.</p>
        <Field name="address" label={LABEL.address} errors={errors} echo={echo} autocomplete="street-address" />
        <div class="row">
          <Field name="city" label={LABEL.city} errors={errors} echo={echo} autocomplete="address-level2" />
          <Field name="state" label={LABEL.state} errors={errors} echo={echo} autocomplete="address-level1" />
        </div>
        <div class="row">
          <Field name="zip_code" label={LABEL.zip_code} errors={errors} echo={echo} autocomplete="postal-code" />
          <Field name="country" label={LABEL.country} errors={errors} echo={echo} autocomplete="country" />
        </div>
      </ActionForm>
    )
  if (step === 'CARD_ENROLL')
    return (
      <ActionForm base={base} action="phone" label="Card enrolment">
        <h2>Enrol your card</h2>
        <p>Enter the phone number tied to card {card} to enrol it for online payment.</p>
        <Field name="phone" label={LABEL.phone} errors={errors} echo={echo} type="tel" autocomplete="tel" inputmode="tel" />
      </ActionForm>
    )
  if (step === '3DS')
    return (
      <>
        <h2>Confirm with your bank</h2>
        <p>Your bank asks you to confirm this payment with card {card} on its page.</p>
        <a class="button primary" href={threeDs}>
          Authenticate with your bank
        </a>
      </>
    )
  return <Waiting what="Your bank is processing this payment." base={base} />
}
