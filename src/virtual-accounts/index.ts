/** The virtual accounts' public face: what other areas use of it (docs/architecture.md, "Areas"). */
export { AccountTransfers, transferEventHead } from './transfers.js'
