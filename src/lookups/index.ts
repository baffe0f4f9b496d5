/** The look-ups' public face: what other areas use of it (docs/architecture.md, "Areas"). */
export { accountName } from './service.js'
