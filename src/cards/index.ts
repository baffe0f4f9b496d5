/**
 * The card area's public face: what other areas (and the layers above) may use of it
 * (docs/architecture.md, "Areas"). Its other files are its own.
 */
export { CARD, CARD_OPS, isCard, returnedOf, type CardCharge, type CardOperation, type PreauthLedger } from './types.js'
export type { CardService } from './service.js'
export type { PreauthService, Written } from './preauth.js'
export { PreauthRefunds, type RefundPart } from './preauth-refunds.js'
export { refundSchema, type RefundInput } from './schemas.js'
export { cardOperation } from './area.js'
export { threeDsPagePath } from './three-ds.js'
export { decryptChargeData, encryptChargeData } from './crypto.js'
