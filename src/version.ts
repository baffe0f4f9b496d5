import { readFileSync } from 'node:fs'

/** The package's version (read once; nothing else loaded, so the CLI starts fast). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version

/** The health answer (`GET /_sandbox/health`): the app's and the start-up gateway's, one shape. */
export function healthBody(startedAt: number) {
  return { status: true, message: 'paysandbox is running', data: { version: VERSION, uptime_s: Math.round((Date.now() - startedAt) / 1000) } }
}
