/** The payouts' public face: what other areas use of it (docs/architecture.md, "Areas"). */
export { PAYOUTS, feeOf, type Payout } from './service.js'
