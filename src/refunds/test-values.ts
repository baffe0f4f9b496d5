import type { AreaTestValues } from '../http/area.js'
import { code as c, textTable, type TestValuesView } from '../scenario/test-value-text.js'
import { formatMoney } from '../money.js'
import { REFUND_MIN } from './service.js'
import { refundSettings } from './settings.js'

/** Refunds (docs/behaviour.md#refunds): how long one processes, and the test fields that pick its outcome. */
function text(m: TestValuesView): string {
  const minimums = Object.entries(REFUND_MIN).map(([currency, minor]) => formatMoney(currency, minor)).join(', ')
  return [
    '\nRefunds\n',
    `POST /merchant/api/v1/refunds/initiate {"payment_reference", "reference", "amount"?}: a settled pay-in, at least ${minimums};\n`,
    `processing for ${refundSettings.of(m).refund_delay_seconds} s on the namespace clock, its amount debited from the available balance at once, then:\n`,
    textTable(
      ['completion_status', 'outcome'],
      [
        ['(absent) or success', 'success, refund.success'],
        ['failed', 'failed, refund.failed with status_reason (default "Refund failed"); the amount returns to the balance'],
      ],
    ),
    'Now: POST /_sandbox/refunds/<reference>/complete {"outcome"?, "reason"?}.\n',
  ].join('')
}

/** Its section of docs/test-values.md, below its title. */
function page(v: TestValuesView): string {
  return `${c('POST /merchant/api/v1/refunds/initiate')} ${c('{"payment_reference", "reference", "amount"?}')} refunds
any settled pay-in (card, pre-authorization captures, mobile money, bank transfer, virtual
account, direct debit, a checkout by its reference), in full (no ${c('amount')}) or in part, never
more than is left. It answers ${c('processing')}, debits the available balance at once, and succeeds
${refundSettings.of(v).refund_delay_seconds} s later on the namespace clock with a signed ${c('refund.success')}; the card refund
(${c('.../charges/card/refund')}) is the same kind of record on the same totals. Read them with
${c('GET /merchant/api/v1/refunds/{reference}')} and ${c('GET /merchant/api/v1/refunds')} (behaviour.md#refunds).

| test field | effect |
|---|---|
| ${c('"completion_status": "failed"')} | the refund fails after ${refundSettings.of(v).refund_delay_seconds} s: ${c('refund.failed')}, the amount back in the balance |
| ${c('"status_reason": "..."')} | carried by the refund and its event |
| ${c('POST /_sandbox/refunds/{reference}/complete')} ${c('{"outcome"?, "reason"?}')} | finishes it now |
`
}

/** Its test values (`Area.testValues`): `sandbox magic`'s part and the test-value page's section. */
export const refundsTestValues: AreaTestValues = { place: 130, text, page: { title: 'Refunds', body: page } }
