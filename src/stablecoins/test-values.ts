import type { AreaTestValues } from '../http/area.js'
import { feeText, type TestValuesView } from '../scenario/test-value-text.js'
import { NETWORKS, STABLECOINS } from './schemas.js'

/** Stablecoin wallets and payouts (docs/behaviour.md#stablecoin-wallets, docs/behaviour.md#stablecoin-payouts): the coins, the networks, the fee. */
function text(m: TestValuesView): string {
  return [
    `Stablecoin wallets: POST /merchant/api/v1/crypto/wallets {"reference", "currency": ${STABLECOINS.join(' | ')}, "network"?: ${NETWORKS.join(' | ')} (default ${NETWORKS[0]}), "customer"};\n`,
    '  GET /merchant/api/v1/crypto/wallets/<reference>.\n',
    `Stablecoin payouts: disburse with {"type": "crypto", "currency": ${STABLECOINS.join(' | ')}, "crypto": {"network", "destination_address"}}, paid from the USD\n`,
    `  balance one for one; fee ${feeText(m.settings.fees.stablecoin_payout)} plus VAT; any address succeeds after the delay (the complete call fails one).\n`,
  ].join('')
}

/** Its test values (`Area.testValues`): `sandbox magic`'s part and the test-value page's section. */
export const stablecoinsTestValues: AreaTestValues = { place: 111, text }
