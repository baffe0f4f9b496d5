/**
 * The default pack's test cards (scenarios/default.yaml), written once: a test names the card by
 * what it does, and a card number changed in the pack is changed here alone. Written out, not read
 * from the pack, so a test still fails when the pack loses a card.
 */

/** Succeeds with no authentication. */
export const NO_AUTH_CARD = '4084127883172787'
/** Succeeds after a PIN. */
export const PIN_CARD = '5188513618552975'
/** Succeeds after a PIN and an OTP. */
export const PIN_OTP_CARD = '5442056106072595'
/** Succeeds after the 3DS page. */
export const THREE_DS_CARD = '4562543755474674'
/** Fails after its OTP: insufficient funds. */
export const INSUFFICIENT_FUNDS_CARD = '506066506066506067'
/** What the insufficient-funds card's charge answers. */
export const INSUFFICIENT_FUNDS = 'Card could not be charged due to insufficient funds'
/** Succeeds, then its charge is disputed (a chargeback opens). */
export const DISPUTED_CARD = '4084080009900005'
/** A mobile-money wallet that succeeds after an STK prompt (KES). */
export const STK_WALLET = '254700000000'
