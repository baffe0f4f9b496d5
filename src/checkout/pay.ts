import type { Scenarios } from '../scenario/index.js'
import { invalid } from '../errors.js'
import type { Frozen } from '../store/frozen.js'
import type { CheckoutCard, ControlPayInput } from './schemas.js'
import type { CheckoutCharge, CheckoutService } from './service.js'
import { CHECKOUT_MSG } from './messages.js'

/**
 * POST /_sandbox/checkouts/:reference/pay (docs/behaviour.md#checkout): pays a checkout as a customer
 * on the page would, for CI without a browser. Without a card or wallet, the channel's first test
 * value whose outcome is the one asked for; every step is answered with the pack's values (PIN,
 * OTP, address, phone; the 3DS page approved), so the attempt ends as its test value says. A bank
 * transfer arrives with `amount` (the expected amount when absent). Pay with bank is approved at
 * the bank's page: the bank given, or the first of the currency that ends as asked.
 */

/** what the scripted customer answers at the steps that ask for details */
const ADDRESS = { state: 'Lagos', city: 'Lekki', country: 'NG', address: '1 Sandbox Road', zip_code: '100001' }
const PHONE = '+2348000000000'

export function payAsCustomer(checkout: CheckoutService, scenarios: Scenarios, ns: string, c: Frozen<CheckoutCharge>, input: ControlPayInput, returnUrl: string, merchant: string): void {
  const want = input.outcome ?? 'success'
  const tx = c.transaction_reference
  const settings = scenarios.forNs(ns).settings
  if (input.channel === 'card') {
    const card = input.card ?? testCard(scenarios, ns, want)
    let child = checkout.payCard(ns, tx, card, returnUrl)
    for (let guard = 0; child.status === 'processing' && child.pending_steps.length && guard < 8; guard++) {
      const step = child.pending_steps[0]
      if (step === '3DS') child = checkout.decide3ds(ns, tx, 'approve')
      else if (step === 'PIN') child = checkout.authorizeCard(ns, tx, { pin: scenarios.forNs(ns).card(card.number)?.pin ?? settings.pin })
      else if (step === 'OTP') child = checkout.authorizeCard(ns, tx, { otp: scenarios.forNs(ns).card(card.number)?.otp ?? settings.otp })
      else if (step === 'AVS') child = checkout.authorizeCard(ns, tx, { avs: ADDRESS })
      else child = checkout.authorizeCard(ns, tx, { phone: PHONE })
    }
  } else if (input.channel === 'mobile_money') {
    const number = input.mobile_money?.number ?? testWallet(scenarios, ns, c.currency, want)
    const wallet = scenarios.forNs(ns).wallet(number.replace(/^\+/, ''))
    let child = checkout.payMobileMoney(ns, tx, number)
    if (child.status === 'processing' && child.pending_steps[0] === 'OTP') child = checkout.authorizeMobileMoney(ns, tx, wallet?.otp ?? settings.otp)
    if (child.status === 'processing' && child.pending_steps[0] === 'STK_PROMPT') checkout.answerPrompt(ns, tx, wallet?.pin ?? settings.pin)
    else if (child.status === 'processing' && child.pending_steps[0] === 'REDIRECT') checkout.decideAtOperator(ns, tx, 'approve')
  } else if (input.channel === 'pay_with_bank') {
    checkout.payWithBankAt(ns, tx, input.bank_code ?? testBank(scenarios, ns, c.currency, want), returnUrl)
    checkout.decideAtBank(ns, tx, 'approve')
  } else {
    checkout.payBankTransfer(ns, tx, merchant)
    if (want === 'failed') checkout.completeCurrent(ns, tx, 'failed')
    else checkout.transferSent(ns, tx, input.amount)
  }
}

/** The first card that ends as `want`, without steps when there is one (`sandbox magic` shows it too). */
export function pickTestCard<C extends { outcome: string; steps: readonly string[] }>(cards: Iterable<C>, want: 'success' | 'failed'): C | undefined {
  const ending = [...cards].filter((s) => s.outcome === want)
  return ending.find((s) => s.steps.length === 0) ?? ending[0]
}

/** The first wallet of the currency that ends as `want`. */
export function pickTestWallet<W extends { outcome: string; currency: string }>(wallets: Iterable<W>, currency: string, want: 'success' | 'failed'): W | undefined {
  return [...wallets].find((w) => w.currency === currency && w.outcome === want)
}

/** The pack's first card that ends as `want` (without steps when there is one), with its details. */
function testCard(scenarios: Scenarios, ns: string, want: 'success' | 'failed'): CheckoutCard {
  const pick = pickTestCard(scenarios.forNs(ns).cards.values(), want)
  if (!pick) throw invalid({ card: CHECKOUT_MSG.noTestCard(want) })
  return { number: pick.number, cvv: pick.cvv, expiry_month: pick.expiry_month, expiry_year: pick.expiry_year }
}

/** The first bank of the currency that ends as `want` once approved (`sandbox magic` shows it too). */
export function pickTestBank<B extends { outcome: string; currency: string }>(banks: Iterable<B>, currency: string, want: 'success' | 'failed'): B | undefined {
  return [...banks].find((b) => b.currency === currency && b.outcome === want)
}

function testBank(scenarios: Scenarios, ns: string, currency: string, want: 'success' | 'failed'): string {
  const pick = pickTestBank(scenarios.forNs(ns).banks.values(), currency, want)
  if (!pick) throw invalid({ bank_code: CHECKOUT_MSG.noTestBank(currency, want) })
  return pick.bank_code
}

/** The pack's first wallet of the currency that ends as `want`. */
function testWallet(scenarios: Scenarios, ns: string, currency: string, want: 'success' | 'failed'): string {
  const pick = pickTestWallet(scenarios.forNs(ns).wallets.values(), currency, want)
  if (!pick) throw invalid({ mobile_money: CHECKOUT_MSG.noTestWallet(currency, want) })
  return pick.number
}
