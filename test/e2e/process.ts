import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const BIN = fileURLToPath(new URL('../../bin/sandbox.js', import.meta.url))

export interface RunningCli {
  child: ChildProcess
  url: string
  stdout: () => string
  stderr: () => string
  /** resolves with the exit code */
  exited: Promise<number | null>
}

/** Spawns `sandbox start ...` and resolves once the ready line is printed. */
export function startCli(args: string[], env: Record<string, string> = {}): Promise<RunningCli> {
  const child = spawn(process.execPath, [BIN, 'start', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /paysandbox listening on (http:\/\/\S+)/.exec(out)
      if (m) resolve({ child, url: m[1], stdout: () => out, stderr: () => err, exited })
    })
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    void exited.then((code) => reject(new Error(`sandbox exited with ${code} before ready: ${err}`)))
  })
}

/** Runs the CLI to completion. */
export function runCli(args: string[], input?: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  child.stdin.end(input ?? '')
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })))
}

/** A process's resident set size, in MB (Linux: /proc). */
export function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1])
  return kb / 1024
}
