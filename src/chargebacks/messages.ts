/**
 * The texts of the chargebacks area alone (docs/behaviour.md#chargebacks). The pages show none of them:
 * each is the sandbox's own, worded as the refunds area's are.
 */
export const CHARGEBACK_MSG = {
  OPENED: 'Chargeback opened',
  UPDATED: 'Chargeback updated successfully',
  RETRIEVED: 'Chargeback retrieved successfully',
  LISTED: 'Chargebacks retrieved successfully',
  DECIDED: 'Chargeback decided',
  NOT_FOUND: 'Chargeback not found',
  NOT_SUCCESSFUL: 'A chargeback can only be opened on a successful transaction',
  NOT_CAPTURED: 'Nothing of this pre-authorization has been captured: only a captured amount can be charged back',
  PREAUTH_VOIDED: 'This pre-authorization has been voided: nothing of it is left to charge back',
  CURRENCY: 'Chargeback not supported for this currency',
  NOTHING_LEFT: 'This transaction has been returned in full: there is nothing left to charge back',
  NOT_PENDING: 'This chargeback has already been answered',
  NOT_DECLINED: 'Only a declined or partially accepted chargeback can be decided',
  max: (money: string) => `The maximum chargeable amount for this transaction is ${money}`,
  partialBelow: (money: string) => `The accepted amount must be less than the chargeback amount of ${money}`,
  // how the balance history describes an entry of this area's ledger source (SPEC-BEYOND-3 1.5)
  entry: (of: string | undefined) => `Chargeback deduction for ${of}`,
} as const
