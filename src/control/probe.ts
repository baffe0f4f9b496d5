import type { ChargeQuery } from '../engine/charge-query.js'
import type { Kit } from '../engine/kit.js'
import { chargeEventData } from '../engine/charge-record.js'
import type { CardCharge } from '../cards/index.js'
import { FAILURE, MSG } from '../messages.js'
import { cardSummary } from '../pan.js'
import { Random } from '../random.js'
import type { Frozen } from '../store/frozen.js'
import { timedOut } from '../webhooks/delivery.js'
import { signWebhook } from '../webhooks/signature.js'
import { PROBE_MSG } from './messages.js'
import type { ProbeCheck, ProbeCheckName, ProbeDelivery, ProbeReport, ProbeSignature } from './probe-report.js'

/** the probe's charges: 1,000.00 NGN on the pack's first success card's summary */
const AMOUNT = 100_000
const CARD = cardSummary('4084084084084081', 'visa', '12', '30')

type Data = Frozen<Record<string, unknown>>

interface Send {
  event: string
  data: Data
  signature: ProbeSignature
  /** the charge the journal must show queried (its payment or transaction reference) */
  charge: Frozen<CardCharge>
}

/**
 * The probe of a merchant's webhook handler (docs/behaviour.md#webhook-probe): a series of deliveries, each
 * made by the delivery's own `send` and signed by `signWebhook`, judged by what the sandbox sees
 * of it: the answer, its time, and whether the namespace's journal shows the handler querying the
 * transaction between the delivery and its answer. Its transactions are never stored: the charge
 * query answers them from the probe while it runs (`ChargeQuery.lend`), so the handler's query
 * finds them and the namespace's records, events and draws stay as they were.
 */
export class WebhookProbe {
  /** the probe's references: drawn apart from the namespace's draws, which under --seed are its records (docs/behaviour.md#seed-and-clock-start) */
  readonly #names: Random

  constructor(
    private readonly kit: Pick<Kit, 'clocks' | 'kinds' | 'journal' | 'webhooks' | 'config'>,
    private readonly chargeQuery: ChargeQuery,
  ) {
    this.#names = new Random(kit.config.seed)
  }

  async run(ns: string, url: string, timeoutMs = this.kit.config.webhookTimeoutMs): Promise<ProbeReport> {
    const paid = this.#charge(ns, 'success')
    const other = this.#charge(ns, 'success')
    const declined = this.#charge(ns, 'failed')
    const giveBack = this.chargeQuery.lend(ns, [paid, other, declined])
    try {
      const data = (ch: Frozen<CardCharge>) => chargeEventData(ch, this.kit.kinds) as Data
      const deliver = (s: Send) => this.#deliver(ns, url, timeoutMs, s)
      const signed = await deliver({ event: 'charge.success', data: data(paid), signature: 'valid', charge: paid })
      const bad = await deliver({ event: 'charge.success', data: data(other), signature: 'bad', charge: other })
      const otherBody = await deliver({ event: 'charge.success', data: data(other), signature: 'other body', charge: other })
      const missing = await deliver({ event: 'charge.success', data: data(other), signature: 'missing', charge: other })
      // the signature covers data alone: a declined charge's data, signed as sent, named a success
      const renamed = await deliver({ event: 'charge.success', data: data(declined), signature: 'valid', charge: declined })
      const duplicate = await deliver({ event: 'charge.success', data: data(paid), signature: 'valid', charge: paid })
      // the pair of one reference, the failure second: the query answers the success
      const late = await deliver({ event: 'charge.failed', data: data({ ...paid, status: 'failed' }), signature: 'valid', charge: paid })
      const all = [signed, bad, otherBody, missing, renamed, duplicate, late]
      const checks: ProbeCheck[] = [
        check('signed', signed, acceptedInTime(signed, timeoutMs)),
        check('bad_signature', bad, refusal(bad)),
        check('other_body_signature', otherBody, refusal(otherBody)),
        check('missing_signature', missing, refusal(missing)),
        check('event_name', renamed, refusedOrQueried(renamed, PROBE_MSG.eventName)),
        check('duplicate', duplicate, refusedOrQueried(duplicate, PROBE_MSG.duplicate)),
        check('out_of_order', late, refusedOrQueried(late, PROBE_MSG.outOfOrder)),
        { check: 'timeout', ...inTime(all, timeoutMs), deliveries: all },
      ]
      return { url, timeout_ms: timeoutMs, passed: checks.every((c) => c.passed), checks }
    } finally {
      giveBack()
    }
  }

  /** A card charge that ended as `status`, as the lifecycle would have made it, kept by no one. */
  #charge(ns: string, status: 'success' | 'failed'): Frozen<CardCharge> {
    const at = this.kit.clocks.iso(ns)
    // a stream of its own: under a seed, the namespace's first draws would give the same bytes
    const stream = `${ns}\u0000webhook probe`
    const message = status === 'success' ? MSG.CHARGE_SUCCESSFUL : FAILURE.INSUFFICIENT_FUNDS
    return {
      kind: 'card',
      operation: 'charge',
      transaction_reference: `KPY-PROBE-${this.#names.text(stream, '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ', 12)}`,
      payment_reference: `probe-${this.#names.id(stream, 16)}`,
      amount: AMOUNT,
      currency: 'NGN',
      fee: 0,
      vat: 0,
      status,
      description: null,
      customer: null,
      metadata: null,
      response_message: message,
      failure_message: status === 'failed' ? message : null,
      attempts: [],
      history: [],
      created_at: at,
      updated_at: at,
      completed_at: at,
      pending_steps: [],
      outcome: status,
      outcome_message: status === 'failed' ? message : null,
      card: CARD,
      auth_model: 'NO_AUTH',
      expect: {},
      redirect_url: null,
      dynamic_descriptor: null,
      scenario_label: 'webhook probe',
    }
  }

  async #deliver(ns: string, url: string, timeoutMs: number, s: Send): Promise<ProbeDelivery> {
    const { journal, webhooks } = this.kit
    const refs = [s.charge.payment_reference, s.charge.transaction_reference]
    const signature = s.signature === 'valid' ? undefined : s.signature === 'missing' ? null : s.signature === 'bad' ? signWebhook(s.data, `${ns}:not-the-key`) : signWebhook({ ...s.data, amount: 1 }, ns)
    const before = journal.list(ns).at(-1)?.id ?? 0
    const { attempt } = await webhooks.send(ns, url, { event: s.event, data: s.data }, { signature, timeoutMs })
    // a query of the transaction, answered before the handler answered (the journal keeps a call as its answer is ready)
    const queried = journal.list(ns, { method: 'GET' }).some((e) => e.id > before && refs.some((r) => e.path.endsWith(`/${r}`)))
    return { event: s.event, reference: String(s.data.reference), status: String(s.data.status), signature: s.signature, ...pick(attempt), queried }
  }
}

function pick(a: { status_code?: number; error?: string; ms: number }): Pick<ProbeDelivery, 'status_code' | 'error' | 'ms'> {
  return a.status_code !== undefined ? { status_code: a.status_code, ms: a.ms } : { error: a.error, ms: a.ms }
}

const is2xx = (d: ProbeDelivery) => d.status_code !== undefined && d.status_code >= 200 && d.status_code < 300

function check(name: ProbeCheckName, d: ProbeDelivery, verdict: { passed: boolean; why: string }): ProbeCheck {
  return { check: name, ...verdict, deliveries: [d] }
}

function acceptedInTime(d: ProbeDelivery, timeoutMs: number) {
  const answer = PROBE_MSG.answer(d)
  return is2xx(d) ? { passed: true, why: answer } : { passed: false, why: PROBE_MSG.notAccepted(answer, timeoutMs) }
}

/** Refused: answered, and not 2xx. */
function refusal(d: ProbeDelivery) {
  const answer = PROBE_MSG.answer(d)
  if (is2xx(d)) return { passed: false, why: PROBE_MSG.trustedSignature(answer) }
  return d.status_code !== undefined ? { passed: true, why: PROBE_MSG.refused(answer) } : { passed: false, why: PROBE_MSG.noRefusal(answer) }
}

/** Refused, or accepted only after the transaction was queried. */
function refusedOrQueried(d: ProbeDelivery, trusted: string) {
  const answer = PROBE_MSG.answer(d)
  if (d.status_code === undefined) return { passed: false, why: answer }
  if (!is2xx(d)) return { passed: true, why: PROBE_MSG.refused(answer) }
  return d.queried ? { passed: true, why: PROBE_MSG.queried(answer, d.reference) } : { passed: false, why: PROBE_MSG.trusted(trusted, answer, d.reference) }
}

/** No delivery waited past the timeout (what the service counts a failed attempt, docs/behaviour.md#webhook-delivery). */
function inTime(all: ProbeDelivery[], timeoutMs: number) {
  const late = all.filter(timedOut)
  if (late.length) return { passed: false, why: PROBE_MSG.late(late.length, all.length, timeoutMs) }
  return { passed: true, why: PROBE_MSG.inTime(timeoutMs, Math.max(...all.map((d) => d.ms))) }
}
