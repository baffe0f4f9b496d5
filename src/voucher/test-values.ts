import type { AreaTestValues } from '../http/area.js'
import { code as c, feeText, feeWords as fee, markdownTable, num, textTable, type TestValuesView } from '../scenario/test-value-text.js'

/** Vouchers (docs/behaviour.md#vouchers): each test PIN's value and what charging it does. */
function text(m: TestValuesView): string {
  if (!m.vouchers.length) return ''
  return [
    '\nVouchers (ZAR)\n',
    `POST /merchant/api/v1/charge/voucher, provider_code 0001; a voucher pays its whole value once, towards an amount of at least that; fee ${feeText(m.settings.fees.voucher)}.\n`,
    textTable(['pin', 'value', 'outcome', 'label'], m.vouchers.map((v) => [v.pin, String(v.value), v.outcome === 'failed' ? `refused: ${v.message}` : v.outcome, v.label])),
    'Any other PIN is refused as invalid; a reset makes the vouchers unused again.\n',
  ].join('')
}

/** Its section of docs/test-values.md, below its title. */
function page(v: TestValuesView): string {
  const rows = v.vouchers.map((x) => [c(x.pin), `ZAR ${num(x.value)}`, x.outcome === 'failed' ? `refused: ${c(x.message!)}` : x.outcome])
  return `${c('POST /merchant/api/v1/charge/voucher')} (ZAR, ${c('provider_code')} ${c('0001')}): a voucher pays its whole value once,
towards an amount of at least that; fee ${fee(v.settings.fees.voucher)}. Any other PIN is refused as invalid; a reset makes
the vouchers unused again (behaviour.md#vouchers).

${markdownTable(['pin', 'value', 'outcome'], rows)}
`
}

/** Its test values (`Area.testValues`): `sandbox magic`'s part and the test-value page's section. */
export const voucherTestValues: AreaTestValues = { place: 120, text, page: { title: 'Vouchers', body: page } }
