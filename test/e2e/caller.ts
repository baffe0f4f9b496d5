import { SECRET } from '../helpers/sandbox.js'
import { startReceiver } from '../receiver.js'
import { api, startCli, type killedAfterEach } from './process.js'

/**
 * A JSON caller of the sandbox at `url` with the default secret key: the method, the path and the
 * body (sent as JSON when given), answering the status and the parsed body.
 */
export function caller(url: string, timeoutMs = 10_000) {
  return (method: string, path: string, body?: unknown) => api(url, SECRET, method, path, body, timeoutMs)
}

/**
 * `sandbox start` as a process and a webhook receiver, both undone after the test through the
 * lists of `killedAfterEach`: the CLI, a caller of it and the receiver.
 */
export async function cliWithReceiver(undo: ReturnType<typeof killedAfterEach>, args: string[] = []) {
  const cli = await startCli(args)
  undo.running.push(cli)
  const rx = await startReceiver()
  undo.cleanups.push(() => rx.close())
  return { cli, call: caller(cli.url), rx }
}
