/** Direct debit's public face: what the dashboard reads of its mandates and debits (docs/architecture.md, "Areas"). */
export { DIRECT_DEBIT, isDebit, type DirectDebit, type DirectDebitService } from './service.js'
