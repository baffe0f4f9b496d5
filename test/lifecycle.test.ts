import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { StepLifecycle, type StepChannel } from '../src/engine/lifecycle.js'
import type { SteppedCharge } from '../src/engine/types.js'
import { resolveConfig } from '../src/config.js'
import { closeDeps, createDeps, type Deps } from '../src/deps.js'
import { ApiError } from '../src/errors.js'

/**
 * The charge lifecycle (src/engine/lifecycle.ts) with a channel of its own, as a new pay-in
 * channel would use it: the channel describes its steps and hooks, the lifecycle does the rest
 * (reference check, fee and VAT, history, the one end, its event).
 */

type Step = 'CODE' | 'CONFIRM'
interface ToyCharge extends SteppedCharge<Step> {
  kind: 'mobile_money'
  prompt: string
}

const NS = 'sk_test_lifecycle'

let deps: Deps
let life: StepLifecycle<ToyCharge>
let calls: string[]
let announce: boolean

function channel(): StepChannel<ToyCharge> {
  return {
    kind: 'mobile_money',
    prefix: 'TY',
    succeeded: 'Toy paid',
    enter: (_ns, charge, step) => {
      calls.push(`enter ${step}`)
      charge.prompt = `answer ${step}`
    },
    waiting: (_ns, charge) => {
      calls.push('waiting')
      charge.prompt = 'waiting'
    },
    onSuccess: () => void calls.push('success'),
    onFailure: (_ns, _charge, message) => void calls.push(`failure ${message}`),
    announces: () => announce,
  }
}

function start(reference: string, outcome: ToyCharge['outcome'] = 'success', steps: Step[] = ['CODE', 'CONFIRM']): ToyCharge {
  const base = life.create(NS, {
    payment_reference: reference,
    // minor units, as the channels' schemas hand it on: 100.00
    amount: 10000,
    currency: 'KES',
    description: null,
    customer: { email: 'buyer@example.com' },
    response_message: 'Toy started',
    created: 'a toy',
  })
  const charge: ToyCharge = Object.assign(base, {
    pending_steps: steps,
    outcome,
    outcome_message: outcome === 'failed' ? 'Toy refused' : null,
    prompt: '',
    notification_url: 'http://127.0.0.1:9/toy',
  })
  life.advance(NS, charge)
  life.save(NS, charge)
  return charge
}

const events = () => deps.events.list(NS).map((e) => `${e.event} ${e.data.payment_reference} ${e.target}`)

beforeEach(async () => {
  deps = await createDeps(resolveConfig({ port: 0 }, {}))
  deps.clocks.freeze(NS, true)
  life = new StepLifecycle(deps, channel())
  calls = []
  announce = true
})
afterEach(() => closeDeps(deps))

describe('charge lifecycle', () => {
  it('creates a processing charge: reference, fee and VAT from the pack, one history line; enters the first step', () => {
    const charge = start('toy-0001')
    expect(charge.transaction_reference).toMatch(/^KPY-TY-[0-9A-Z]{14}$/)
    // mobile_money fees of the default pack on 100.00: 1.5 % = 1.50, VAT 7.5 % of it = 0.11
    expect([charge.amount, charge.fee, charge.vat, charge.status]).toEqual([10000, 150, 11, 'processing'])
    expect(charge.history).toEqual([{ at: charge.created_at, step: 'created', result: 'a toy' }])
    expect(calls).toEqual(['enter CODE'])
    expect(life.find(NS, 'toy-0001')).toBe(charge)
    expect(life.find(NS, charge.transaction_reference)).toBe(charge)
  })

  it('refuses a payment reference already used', () => {
    start('toy-0002')
    const refused = (f: () => unknown) => {
      try {
        f()
      } catch (e) {
        return [(e as ApiError).status, (e as ApiError).message, (e as ApiError).data]
      }
      return null
    }
    const create = (reference: string) =>
      life.create(NS, { payment_reference: reference, amount: 500, currency: 'KES', description: null, customer: null, response_message: '', created: '' })
    expect(refused(() => create('toy-0002'))).toEqual([409, 'Duplicate payment reference', null])
  })

  it('passes steps one by one, then succeeds once and announces it to the channel target', () => {
    start('toy-0004')
    // each call changes a copy of the stored charge and saves it
    const first = life.pending(NS, 'toy-0004')
    life.pass(NS, first, 'CODE', 'passed')
    expect(life.save(NS, first).prompt).toBe('answer CONFIRM')
    const charge = life.pending(NS, 'toy-0004')
    life.pass(NS, charge, 'CONFIRM', 'confirmed')
    life.save(NS, charge)
    expect(life.find(NS, 'toy-0004')).toEqual(charge)
    expect(calls).toEqual(['enter CODE', 'enter CONFIRM', 'success'])
    expect([charge.status, charge.response_message, charge.completed_at]).toEqual(['success', 'Toy paid', charge.updated_at])
    expect(charge.history.map((h) => `${h.step}: ${h.result}`)).toEqual(['created: a toy', 'CODE: passed', 'CONFIRM: confirmed'])
    expect(events()).toEqual(['charge.success toy-0004 http://127.0.0.1:9/toy'])
    expect(() => life.pending(NS, 'toy-0004')).toThrow('Payment has already been completed')
  })

  it('fails with its message: attempt, history line, no step left, the channel told, announced', () => {
    start('toy-0005')
    const charge = life.pending(NS, 'toy-0005')
    life.fail(NS, charge, 'Toy declined', 'CODE')
    life.save(NS, charge)
    expect(charge.pending_steps).toEqual([])
    expect([charge.status, charge.failure_message, charge.response_message]).toEqual(['failed', 'Toy declined', 'Toy declined'])
    expect(charge.attempts).toEqual([{ reference: charge.transaction_reference, status: 'failed', channel: 'mobile_money', message: 'Toy declined' }])
    expect(charge.history.at(-1)).toEqual({ at: charge.completed_at, step: 'CODE', result: 'failed: Toy declined' })
    expect(calls).toEqual(['enter CODE', 'failure Toy declined'])
    expect(events()).toEqual(['charge.failed toy-0005 http://127.0.0.1:9/toy'])
    expect(() => life.pending(NS, 'toy-0005')).toThrow('Transaction has already been completed')
  })

  it("ends as its scenario says once no step is left: failed with the scenario's message, or waiting", () => {
    const failed = start('toy-0006', 'failed', [])
    expect([failed.status, failed.failure_message, failed.history.at(-1)?.step]).toEqual(['failed', 'Toy refused', 'outcome'])
    const waiting = start('toy-0007', 'processing', [])
    expect([waiting.status, waiting.prompt]).toEqual(['processing', 'waiting'])
  })

  it('answers only the step that is pending, and announces nothing the channel keeps quiet', () => {
    announce = false
    const started = start('toy-0008')
    expect(() => life.current(NS, 'toy-0008', 'CONFIRM', 'No confirmation is pending')).toThrow('No confirmation is pending')
    const charge = life.current(NS, 'toy-0008', 'CODE', 'unused')
    expect(charge).toEqual(started)
    life.pass(NS, charge, 'CODE', 'passed')
    life.pass(NS, charge, 'CONFIRM', 'passed')
    expect(life.save(NS, charge).status).toBe('success')
    expect(events()).toEqual([])
  })
})
