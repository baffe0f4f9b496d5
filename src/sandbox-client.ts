import { ConfigError } from './config.js'
import { checkSecretKey } from './config-options.js'

/** Where the CLI reaches a running sandbox, and as whom. */
export interface SandboxClient {
  key: string
  baseUrl: string
  controlToken?: string
}

/**
 * A control call of the CLI to a running sandbox (`sandbox snapshot`, `probe-webhook`, `report`),
 * as the namespace of `key` and with the control token when there is one. A live key is never sent
 * anywhere, not even to ask (docs/behaviour.md#snapshots): refused with `fail` (exit 2); a sandbox out
 * of reach is `fail` with exit 1. Returns the answer and its JSON body (null when it has none).
 */
export async function callSandbox<T>(
  client: SandboxClient,
  path: string,
  fail: (message: string, code?: number) => never,
  send?: { method: string; json: unknown },
): Promise<{ res: Response; body: { status?: boolean; message?: string; data?: T } | null }> {
  try {
    checkSecretKey(client.key, '--key')
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message)
    throw e
  }
  let res: Response
  try {
    res = await fetch(`${client.baseUrl.replace(/\/+$/, '')}${path}`, {
      ...(send && { method: send.method }),
      headers: { authorization: `Bearer ${client.key}`, ...(send && { 'content-type': 'application/json' }), ...(client.controlToken && { 'x-sandbox-control-token': client.controlToken }) },
      ...(send && { body: JSON.stringify(send.json) }),
    })
  } catch (e) {
    fail(`cannot reach ${client.baseUrl}: ${(e as Error).message}`, 1)
  }
  const body = (await res.json().catch(() => null)) as { status?: boolean; message?: string; data?: T } | null
  return { res, body }
}
