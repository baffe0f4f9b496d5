/** Mobile money's public face: what other areas use of it (docs/architecture.md, "Areas"). */
export { walletNumberIssue } from './schemas.js'
export type { MobileMoneyCharge } from './service.js'
