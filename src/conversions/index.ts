/** The conversions' public face: what other areas use of it (docs/architecture.md, "Areas"). */
export { convertMinor } from './rates.js'
