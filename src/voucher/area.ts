import { validateWithMetadata } from '../engine/schemas.js'
import type { Kit } from '../engine/kit.js'
import { chargeKind } from '../engine/types.js'
import { MINOR, STRING, shape } from '../store/validate.js'
import type { Area } from '../http/area.js'
import { readJsonObject } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { VOUCHER_MSG } from './messages.js'
import { voucherAnswerSchema, voucherSchema } from './schemas.js'
import { REDEEMED_SPEC, VoucherService, type VoucherCharge } from './service.js'
import { chargeOutcomes } from '../engine/outcomes.js'
import { voucherTestValues } from './test-values.js'

/** its kind of charge, declared to the engine (`ChargeKinds`, src/engine/types.ts) */
declare module '../engine/types.js' {
  interface ChargeKinds { voucher: { record: VoucherCharge; method: 'voucher' } }
}

/** docs/behaviour.md#vouchers: voucher payments (ZAR). */
export const voucherArea: Area<{ voucher: VoucherService }, Kit> = {
  key: 'voucher',
  testValues: voucherTestValues,
  outcomes: chargeOutcomes('voucher', 'voucher', (s) => s.vouchers.values()),
  tags: { voucher: 'Voucher payments (ZAR): a prepaid voucher of the scenario packs pays its value at once, once' },
  collections: [
    REDEEMED_SPEC,
    chargeKind('voucher', { voucher: shape({ serial_number: STRING, balance: MINOR, provider_code: STRING, expiry_date: STRING }) }, { asWritten: ['voucher.serial_number', 'voucher.phone_number'] }),
  ],
  build(kit) {
    const voucher = new VoucherService(kit)
    kit.kinds.declare<VoucherCharge>({
      kind: voucher.kind,
      paid: (_ns, c) => voucher.paid(c),
      queryExtras: (_ns, c) => voucher.queryExtras(c),
      instrument: (c) => [`voucher ${c.voucher.serial_number} (provider ${c.voucher.provider_code})`],
    })
    return { voucher }
  },
  routes: [
    {
      method: 'post', path: '/merchant/api/v1/charge/voucher', access: 'secret key', tag: 'voucher', operationId: 'chargeVoucher',
      summary: 'Pay with a prepaid voucher (ZAR): charged at once', body: { name: 'VoucherRequest', schema: voucherSchema }, answer: { name: 'VoucherCharge', schema: voucherAnswerSchema },
      description: "The voucher (`voucher.pin`, one of the scenario packs': `sandbox magic`) pays its whole value, at most the amount asked, and is then used. Refused with 400: a provider other than `0001`, an unknown PIN, a voucher already used, one worth more than the amount; a reused reference 409.",
      handler: async (c, { voucher, scenarios }) => {
        const ns = c.get('ns')
        const input = validateWithMetadata(voucherSchema, await readJsonObject(c), scenarios.forNs(ns).metadataUnderscores)
        return ok(c, VOUCHER_MSG.CHARGED, voucher.responseData(voucher.charge(ns, input), input.voucher.pin))
      },
    },
  ],
}
