import type { Context } from 'hono'
import type { Kit } from '../engine/kit.js'
import { servedBy } from '../engine/kinds.js'
import { STEPPED_FIELDS, chargeKind } from '../engine/types.js'
import { MINOR, STRING, shape } from '../store/validate.js'
import type { Area } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { validateWithMetadata } from '../engine/schemas.js'
import type { AppEnv } from '../http/context.js'
import { ok } from '../http/envelope.js'
import { mmAuthorizeSchema, mobileMoneyChargeSchema, resendSchema, stkAuthorizeSchema } from './schemas.js'
import { MM_MSG } from './messages.js'
import { WALLET_CURRENCIES } from '../scenario/lookups.js'
import { MobileMoneyService, type MobileMoneyCharge } from './service.js'
import type { DecisionPage } from '../engine/decision-page.js'
import { pageRoutePaths } from '../engine/pages.js'
import { clientOrigin } from '../http/origin.js'
import { walletPage } from './page.js'
import { chargeOutcomes } from '../engine/outcomes.js'
// its checkout channel, declared beside it: the checkout offers it (src/engine/checkout-channel.ts)
import './checkout-channel.js'
import { mobileMoneySettings } from './settings.js'
import { mobileMoneyTestValues } from './test-values.js'

/** its kind of charge, declared to the engine (`ChargeKinds`, src/engine/types.ts) */
declare module '../engine/types.js' {
  interface ChargeKinds { mobile_money: { record: MobileMoneyCharge; method: 'mobile_money'; attempt: 'mobile_money' } }
}

type Served = { mobileMoney: MobileMoneyService; config: Kit['config'] }

/** A charge's answer, with its envelope (docs/behaviour.md#mobile-money-charge); `status` 200 unless given; `step`, the answer of a step call. */
const answer = (c: Context<AppEnv>, { mobileMoney: mm, config }: Served, charge: MobileMoneyCharge, { status = 200, step = false }: { status?: 200 | 409; step?: boolean } = {}) => {
  const env = mm.envelope(charge)
  return ok(c, env.message, mm.responseData(charge, clientOrigin(c, config.interceptHosts), step), { status, ...(env.code ? { code: env.code } : {}) })
}

const [WALLET_PAGE, WALLET_PAGE_BARE] = pageRoutePaths('/_sandbox/mobile-money/:tx')

const MM = '/merchant/api/v1/charges/mobile-money'
const resend = { name: 'ResendRequest', schema: resendSchema }

/** docs/api.md 4.2 plus docs/behaviour.md#mobile-money's resend and sandbox calls. */
export const mobileMoneyArea: Area<{ mobileMoney: MobileMoneyService; walletPage: DecisionPage }, Kit> = {
  key: 'mobile money',
  settings: mobileMoneySettings,
  testValues: mobileMoneyTestValues,
  outcomes: chargeOutcomes('mobile-money', 'mobile_money', (s) => s.wallets.values(), [{ step: 'REDIRECT', message: MM_MSG.DECLINED }]),
  pages: { prefix: '/_sandbox/mobile-money/', replaysAsForm: true },
  tags: { 'mobile money': `Mobile money charges (${WALLET_CURRENCIES.join(', ')}) with OTP, STK prompt and the operator's page (REDIRECT)` },
  collections: [chargeKind('mobile_money', { ...STEPPED_FIELDS, wallet: shape({ number: STRING }), amount_expected: MINOR }, { asWritten: ['wallet.number', 'message'] })],
  build(kit) {
    const mobileMoney = new MobileMoneyService(kit)
    kit.kinds.declare<MobileMoneyCharge>({
      ...servedBy(mobileMoney),
      attemptLine: (charge) => MM_MSG.attempt(charge.wallet.number),
      instrument: (charge) => [`wallet ${charge.wallet.number}`],
    })
    return { mobileMoney, walletPage: walletPage({ store: kit.store, namespaces: kit.namespaces, mobileMoney, intercepted: kit.config.interceptHosts }) }
  },
  routes: [
    {
      method: 'post', path: MM, access: 'secret key', tag: 'mobile money', operationId: 'chargeMobileMoney', summary: `Charge a mobile money wallet (${WALLET_CURRENCIES.join(', ')})`,
      body: { name: 'MobileMoneyChargeRequest', schema: mobileMoneyChargeSchema },
      description: "`auth_model` says what the customer does next: `OTP` (then `authorize`), `STK_PROMPT` (the PIN on the phone: `sandbox/authorize-stk`, or by itself after the prompt delay) or `REDIRECT` (the operator's page at `authorization.redirect_url`, where the customer approves or declines).",
      handler: async (c, s) => {
        const ns = c.get('ns')
        return answer(c, s, s.mobileMoney.charge(ns, validateWithMetadata(mobileMoneyChargeSchema, await readJsonObject(c), s.scenarios.forNs(ns).metadataUnderscores)))
      },
    },
    {
      method: 'post', path: `${MM}/authorize`, access: 'secret key', tag: 'mobile money', operationId: 'authorizeMobileMoney', step: true, summary: 'Answer the OTP step',
      body: { name: 'MobileMoneyAuthorizeRequest', schema: mmAuthorizeSchema },
      handler: async (c, s) => {
        const { reference, token } = validate(mmAuthorizeSchema, await readJsonObject(c))
        const charge = s.mobileMoney.authorize(c.get('ns'), reference, token)
        // a wrong OTP: 409, the charge saying so in its message and attempts_left (docs/behaviour.md#mobile-money-otp)
        return answer(c, s, charge, { status: charge.otp_rejected ? 409 : 200, step: true })
      },
    },
    {
      method: 'post', path: `${MM}/sandbox/authorize-stk`, access: 'secret key', tag: 'mobile money', operationId: 'authorizeStk', step: true, summary: 'Answer the STK prompt with the wallet PIN',
      body: { name: 'StkAuthorizeRequest', schema: stkAuthorizeSchema },
      handler: async (c, s) => {
        const { reference, pin } = validate(stkAuthorizeSchema, await readJsonObject(c))
        return answer(c, s, s.mobileMoney.authorizeStk(c.get('ns'), reference, pin), { step: true })
      },
    },
    {
      method: 'post', path: `${MM}/resend-otp`, access: 'secret key', tag: 'mobile money', operationId: 'resendMobileMoneyOtp', step: true, summary: 'Resend the OTP', body: resend,
      handler: async (c, s) => {
        const b = validate(resendSchema, await readJsonObject(c))
        s.mobileMoney.resendOtp(c.get('ns'), (b.transaction_reference ?? b.reference)!)
        return ok(c, MM_MSG.OTP_RESENT, null)
      },
    },
    {
      method: 'post', path: `${MM}/resend-stk`, access: 'secret key', tag: 'mobile money', operationId: 'resendStk', step: true, summary: 'Send the STK prompt again', body: resend,
      handler: async (c, s) => {
        const b = validate(resendSchema, await readJsonObject(c))
        s.mobileMoney.resendStk(c.get('ns'), (b.transaction_reference ?? b.reference)!)
        return ok(c, MM_MSG.STK_RESENT, null)
      },
    },
    // the operator's page of a REDIRECT step: no key; its namespace named, or the reference alone
    { method: 'get', path: WALLET_PAGE, access: 'open', page: true, handler: (c, s) => s.walletPage.show(c) },
    { method: 'post', path: WALLET_PAGE, access: 'open', page: true, handler: (c, s) => s.walletPage.decide(c) },
    { method: 'get', path: WALLET_PAGE_BARE, access: 'open', page: true, handler: (c, s) => s.walletPage.show(c) },
    { method: 'post', path: WALLET_PAGE_BARE, access: 'open', page: true, handler: (c, s) => s.walletPage.decide(c) },
  ],
}
