/** The stablecoins' public face: what other areas use of it (docs/architecture.md, "Areas"). */
export { NETWORKS, STABLECOINS } from './schemas.js'
