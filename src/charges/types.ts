import type { CardSummary } from '../cards/pan.js'
import type { CardStep, Outcome } from '../scenario/schema.js'

export type ChargeStatus = 'processing' | 'success' | 'failed'
export type PaymentMethod = 'card' | 'mobile_money' | 'direct_debit'

export interface PaymentAttempt {
  reference: string
  status: ChargeStatus
  channel: 'card' | 'mobile_money' | 'bank_account'
  message: string
}

/** A step taken on a charge, for the dashboard and the journal. */
export interface StepEvent {
  at: string
  step: string
  result: string
}

/** What every charge kind has; amounts are integer minor units. */
export interface ChargeBase {
  kind: PaymentMethod
  transaction_reference: string
  payment_reference: string
  amount: number
  currency: string
  fee: number
  vat: number
  status: ChargeStatus
  description: string | null
  customer: { email?: string; name?: string } | null
  metadata: Record<string, unknown> | null
  response_message: string
  failure_message: string | null
  attempts: PaymentAttempt[]
  history: StepEvent[]
  created_at: string
  updated_at: string
  completed_at: string | null
}

export interface CardCharge extends ChargeBase {
  kind: 'card'
  operation: 'charge' | 'pre_authorization'
  card: CardSummary
  auth_model: 'NO_AUTH' | CardStep
  /** steps still to pass, the current one first */
  pending_steps: CardStep[]
  /** the scenario's end: what happens once the steps are passed */
  outcome: Outcome
  outcome_message: string | null
  /** SHA-256 of the scenario's expected PIN and OTP: the values themselves are never stored */
  expect: { pin?: string; otp?: string }
  redirect_url: string | null
  dynamic_descriptor: string | null
  scenario_label: string
}

export const CHARGES = 'charges'
