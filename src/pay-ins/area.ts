import type { BankTransferCharge, BankTransferService } from '../bank-transfer/service.js'
import type { PreauthService } from '../cards/preauth.js'
import { ChargeQuery, type QueryExtras } from '../charges/charge-query.js'
import type { Kit } from '../charges/kit.js'
import { chargeRecordSchema } from '../charges/schemas.js'
import type { CardCharge, ChargeKind } from '../charges/types.js'
import type { CheckoutCharge, CheckoutService } from '../checkout/service.js'
import type { DirectDebit, DirectDebitService } from '../direct-debit/service.js'
import { MSG } from '../errors.js'
import type { Area } from '../http/area.js'
import { validate } from '../http/body.js'
import { ok, sendJson } from '../http/envelope.js'
import type { MobileMoneyCharge, MobileMoneyService } from '../mobile-money/service.js'
import type { VirtualAccountCharge, VirtualAccountService } from '../virtual-accounts/service.js'
import { payinQuerySchema, payinsAnswerSchema } from './schemas.js'
import { PayinService } from './service.js'

/** The areas of every kind of charge: built before this one (src/areas.ts). */
type Kinds = {
  preauth: PreauthService
  mobileMoney: MobileMoneyService
  directDebit: DirectDebitService
  bankTransfer: BankTransferService
  checkout: CheckoutService
  virtualAccounts: VirtualAccountService
}

type Charges = { queryExtras: Record<ChargeKind, QueryExtras>; payins: PayinService; chargeQuery: ChargeQuery }

/** The charge query over every kind of charge (docs/api.md 2.8) and the pay-ins list (docs/behaviour.md 13.9). */
export const chargesArea: Area<Charges, Kit & Kinds> = {
  key: 'charges',
  build({ store, clocks, config, preauth, mobileMoney, directDebit, bankTransfer, checkout, virtualAccounts }) {
    /** per kind of charge, what its query record adds (the charge query and the pay-ins list) */
    const queryExtras: Record<ChargeKind, QueryExtras> = {
      card: (ns, charge) => preauth.queryExtras(ns, charge as CardCharge),
      mobile_money: (_ns, charge) => mobileMoney.queryExtras(charge as MobileMoneyCharge),
      direct_debit: (_ns, charge) => directDebit.queryExtras(charge as DirectDebit),
      bank_transfer: (_ns, charge) => bankTransfer.queryExtras(charge as BankTransferCharge),
      checkout: (_ns, charge) => checkout.queryExtras(charge as CheckoutCharge),
      virtual_account: (_ns, charge) => virtualAccounts.queryExtras(charge as VirtualAccountCharge),
    }
    return { queryExtras, payins: new PayinService(store, queryExtras), chargeQuery: new ChargeQuery(store, clocks, queryExtras, config.queryCache) }
  },
  routes: [
    {
      method: 'get', path: '/merchant/api/v1/pay-ins', access: 'secret key', tag: 'charges', operationId: 'listPayIns', summary: "The namespace's pay-ins of every channel (a checkout once), newest first, by cursor",
      query: payinQuerySchema, answer: { name: 'PayIns', schema: payinsAnswerSchema },
      handler: (c, { payins }) => ok(c, MSG.SUCCESS, payins.list(c.get('ns'), validate(payinQuerySchema, c.req.query()))),
    },
    {
      method: 'get', path: '/merchant/api/v1/charges/:reference', access: 'secret key', tag: 'charges', operationId: 'getCharge', summary: 'Query a charge of any kind by payment or transaction reference',
      answer: { name: 'ChargeRecord', schema: chargeRecordSchema },
      handler: (c, { chargeQuery }) => sendJson(c, chargeQuery.answer(c.get('ns'), c.req.param('reference')!)),
    },
  ],
}
