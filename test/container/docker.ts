import { execFile, spawn } from 'node:child_process'
import { afterEach } from 'vitest'

/** the image the container project's global setup builds */
export const IMAGE = 'paysandbox:local'

/** Runs `docker ...` to completion: its stdout, trimmed; rejects with its stderr. */
export function docker(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('docker', args, { maxBuffer: 16 << 20 }, (err, stdout, stderr) => (err ? reject(new Error(`docker ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout.trim()))),
  )
}

/** what a test made (containers, volumes), removed after it */
const made: string[][] = []
afterEach(async () => {
  while (made.length) await docker(...made.pop()!).catch(() => undefined)
})

export interface Container {
  id: string
  /** the host's URL of a port of the container, published on 127.0.0.1 */
  url(port: number, scheme?: string): Promise<string>
}

/**
 * `docker run -d` of the image with `args` before it (`-e`, `-v` ...) and `command` after it;
 * the ports in `publish` go to free ports on the host's loopback. Removed after the test.
 */
export async function run(args: string[], publish: number[] = [4010], command: string[] = []): Promise<Container> {
  const id = await docker('run', '-d', ...publish.flatMap((p) => ['-p', `127.0.0.1::${p}`]), ...args, IMAGE, ...command)
  made.push(['rm', '-f', '-v', id])
  return {
    id,
    async url(port, scheme = 'http') {
      const bound = (await docker('port', id, `${port}/tcp`)).split('\n')[0]
      return `${scheme}://127.0.0.1:${bound.slice(bound.lastIndexOf(':') + 1)}`
    },
  }
}

/** A docker volume, removed after the test. */
export async function volume(): Promise<string> {
  const name = await docker('volume', 'create')
  made.push(['volume', 'rm', '-f', name])
  return name
}

/** A user-defined bridge network (its containers reach each other by name) and its gateway, the host's address on it; removed after the test. */
export async function network(): Promise<{ name: string; gateway: string; subnet: string }> {
  const name = await docker('network', 'create', `paysandbox-${process.pid}-${Date.now().toString(36)}`)
  // removed after the containers on it (made is emptied from its end)
  made.unshift(['network', 'rm', name])
  const [gateway, subnet] = (await docker('network', 'inspect', '--format', '{{(index .IPAM.Config 0).Gateway}} {{(index .IPAM.Config 0).Subnet}}', name)).split(' ')
  return { name, gateway, subnet }
}

/** how long a container may take to start answering (a real process starting: the one bounded wait) */
const START_LIMIT_MS = 20_000

/** Fails with the container's state and output: why it did not come up. */
async function notUp(id: string, what: string): Promise<never> {
  throw new Error(`the container ${what} within ${START_LIMIT_MS} ms; state ${JSON.stringify(await state(id))}, output:\n${await logs(id)}`)
}

/**
 * Polls `GET url/_sandbox/health` of the container's `port` until it answers 200 (bounded).
 * Resolves with the time it answered (performance.now()) and the URL.
 */
export async function firstAnswer(box: Container, port = 4010): Promise<{ at: number; url: string }> {
  const url = await box.url(port)
  const until = performance.now() + START_LIMIT_MS
  for (;;) {
    const ok = await fetch(`${url}/_sandbox/health`, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return { at: performance.now(), url }
    if (performance.now() > until) return notUp(box.id, 'did not answer its health check')
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** Waits (bounded) for the ready line, printed once every listener (HTTPS, the proxy) is up. */
export async function listening(box: Container): Promise<void> {
  const until = performance.now() + START_LIMIT_MS
  while (!(await logs(box.id)).includes('paysandbox listening on')) {
    if (performance.now() > until) await notUp(box.id, 'printed no ready line')
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** The container's state as docker inspect gives it. */
export async function state(id: string): Promise<{ Status: string; ExitCode: number; StartedAt: string; Health?: { Status: string } }> {
  return JSON.parse(await docker('inspect', '--format', '{{json .State}}', id))
}

/** The container's output so far (stdout and stderr together). */
export function logs(id: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('docker', ['logs', id])
    let text = ''
    child.stdout.on('data', (d: Buffer) => (text += d))
    child.stderr.on('data', (d: Buffer) => (text += d))
    child.on('close', () => resolve(text))
  })
}
