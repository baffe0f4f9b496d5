import { balancesArea } from './balances/area.js'
import { bankTransferArea } from './bank-transfer/area.js'
import { cardsArea } from './cards/area.js'
import type { Kit } from './engine/kit.js'
import { chargebacksArea } from './chargebacks/area.js'
import { checkoutArea } from './checkout/area.js'
import { controlArea } from './control/area.js'
import { conversionsArea } from './conversions/area.js'
import { dashboardArea } from './control/dashboard/page.js'
import { infoArea } from './control/info.js'
import { directDebitArea } from './direct-debit/area.js'
import type { AnyArea, Area } from './http/area.js'
import { identityArea } from './identity/area.js'
import { lookupsArea } from './lookups/area.js'
import { mobileMoneyArea } from './mobile-money/area.js'
import { payInsArea } from './pay-ins/area.js'
import { payWithBankArea } from './pay-with-bank/area.js'
import { payoutsArea } from './payouts/area.js'
import { poolAccountsArea } from './pool-accounts/area.js'
import { refundsArea } from './refunds/area.js'
import { stablecoinsArea } from './stablecoins/area.js'
import { transactionsArea } from './transactions/area.js'
import { virtualAccountsArea } from './virtual-accounts/area.js'
import { voucherArea } from './voucher/area.js'

/**
 * The areas the sandbox serves, in the order they are built (src/deps.ts) and their routes mounted
 * (src/app.ts): an area comes after those whose services it names (the compiler checks it below).
 * Adding an area is a folder with its `area.ts` and a line here (docs/architecture.md, "Areas").
 */
export const AREAS = [
  infoArea,
  cardsArea,
  mobileMoneyArea,
  bankTransferArea,
  payWithBankArea,
  voucherArea,
  checkoutArea,
  virtualAccountsArea,
  poolAccountsArea,
  refundsArea,
  chargebacksArea,
  directDebitArea,
  identityArea,
  lookupsArea,
  balancesArea,
  conversionsArea,
  payoutsArea,
  stablecoinsArea,
  payInsArea,
  transactionsArea,
  controlArea,
  dashboardArea,
] as const

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never

/** The services a list of areas builds, each under its own name. */
export type ServicesOf<L extends readonly AnyArea[]> = Intersection<ReturnType<L[number]['build']>>

/**
 * `true` when every area of `L` is listed after the areas whose services it names; otherwise the
 * first area that comes too early, and what it misses.
 */
export type Ordered<L extends readonly AnyArea[], Have = Kit> = L extends readonly [infer A, ...infer R extends readonly AnyArea[]]
  ? A extends Area<infer S, infer K>
    ? Have extends K
      ? Ordered<R, Have & S>
      : { area: A; misses: Exclude<keyof K, keyof Have> }
    : never
  : true

const ordered: Ordered<typeof AREAS> = true
void ordered
