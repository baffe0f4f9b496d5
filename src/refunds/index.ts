/** The refunds' public face: what other areas use of it (docs/architecture.md, "Areas"). */
export { Payins } from './payins.js'
export { initiateSchema } from './schemas.js'
