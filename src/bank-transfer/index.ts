/** The bank transfer's public face: what other areas use of it (docs/architecture.md, "Areas"). */
export { SANDBOX_PAYER, type BankTransferService } from './service.js'
export { TRANSFER_LIMITS } from './schemas.js'
