import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Route } from '../../http/area.js'

/**
 * The page's stylesheet and script: files beside this one (the build copies them into dist/, see
 * scripts/copy-assets.mjs), served as /_sandbox/ui/<name>. Each is read once, on first use (not at
 * start: nothing else needs them). The page links them with a hash of their content in the query,
 * so a browser may keep them: a changed file gets a new address.
 */
const TYPES = {
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
} as const
export type AssetName = keyof typeof TYPES

interface Asset {
  body: string
  /** a hash of the content, put in the page's links */
  version: string
}

const loaded = new Map<AssetName, Asset>()

export function asset(name: AssetName): Asset {
  let a = loaded.get(name)
  if (!a) {
    const body = readFileSync(new URL(name, import.meta.url), 'utf8')
    a = { body, version: createHash('sha256').update(body).digest('hex').slice(0, 12) }
    loaded.set(name, a)
  }
  return a
}

/** GET /_sandbox/ui/<name>, served by the dashboard area (page.tsx). */
export const assetRoutes = (Object.keys(TYPES) as AssetName[]).map((name): Route<unknown> => ({
  method: 'get', path: `/_sandbox/ui/${name}`, access: 'dashboard', page: true,
  handler: (c) => c.body(asset(name).body, 200, { 'content-type': TYPES[name], 'cache-control': 'private, max-age=31536000, immutable' }),
}))
