import { listenFrom } from './config.js'

/** how long `sandbox health` waits for the answer */
const HEALTH_TIMEOUT_MS = 2_000

/** The URL a client on this machine calls a server listening on `host` at: an any-address is reached on loopback. */
export function localBase(host: string, port: number): string {
  const at = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host
  return `http://${at.includes(':') ? `[${at}]` : at}:${port}`
}

/**
 * `sandbox health` (docs/behaviour.md#container-image): 0 when `GET /_sandbox/health` of the sandbox at `url`
 * (by default where `sandbox start` listens by SANDBOX_HOST and SANDBOX_PORT) answers 200 within
 * two seconds, else 1 with the reason on stderr. The container image's HEALTHCHECK: a scratch
 * image has no curl, so node asks.
 */
export async function checkHealth(url: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let target = url
  if (target === undefined) {
    const { host, port } = listenFrom(env)
    target = localBase(host, port)
  }
  const health = `${target.replace(/\/+$/, '')}/_sandbox/health`
  try {
    const res = await fetch(health, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) })
    if (res.ok) return 0
    process.stderr.write(`sandbox: ${health} answered ${res.status}\n`)
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } }
    process.stderr.write(`sandbox: ${health} did not answer (${err.cause?.code ?? err.name})\n`)
  }
  return 1
}
