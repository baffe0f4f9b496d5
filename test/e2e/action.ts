import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { clientEnv } from './reach.js'

/**
 * The GitHub Action's steps run as the runner runs them (docs/behaviour.md#github-action): its scripts are
 * the files action.yml names, run with node; inputs are `INPUT_<NAME>` variables, every declared
 * input set (its default when the step gives none); each step gets its own `GITHUB_OUTPUT` and
 * `GITHUB_STATE` files, the job one `GITHUB_ENV` whose lines every later step gets as variables,
 * and the post step gets main's state as `STATE_<name>`.
 */

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

interface ActionYml {
  inputs: Record<string, { default?: string }>
  outputs: Record<string, unknown>
  runs: { using: string; main: string; post: string }
}

export const readAction = (root = ROOT): ActionYml => parse(readFileSync(join(root, 'action.yml'), 'utf8')) as ActionYml

/** the lines of a runner file: `name=value`, or `name<<DELIMITER`, the value's lines, `DELIMITER` */
export function parseRunnerFile(file: string): Record<string, string> {
  const lines = readFileSync(file, 'utf8').split('\n')
  const out: Record<string, string> = {}
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i])
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1)
      if (end < 0) throw new Error(`${file}: ${heredoc[1]} has no closing ${heredoc[2]}`)
      out[heredoc[1]] = lines.slice(i + 1, end).join('\n')
      i = end
    } else if (lines[i]) {
      const eq = lines[i].indexOf('=')
      if (eq < 1) throw new Error(`${file}: not a runner line: ${lines[i]}`)
      out[lines[i].slice(0, eq)] = lines[i].slice(eq + 1)
    }
  }
  return out
}

/** what none of this process's variables may leak into a step: the sandbox's and the runner's (proxies and CAs `clientEnv` drops) */
const LEAKS = /^(SANDBOX_|INPUT_|STATE_|GITHUB_|RUNNER_)/

export interface StepResult {
  code: number | null
  stdout: string
  stderr: string
  /** the step's outputs and saved state */
  outputs: Record<string, string>
  state: Record<string, string>
  /** what the step appended to its summary (`GITHUB_STEP_SUMMARY`) */
  summary: string
}

/** A job on this machine: a workspace, the runner's temp directory and the job's GITHUB_ENV. */
export class Job {
  readonly dir = mkdtempSync(join(tmpdir(), 'paysandbox-action-'))
  readonly workspace = join(this.dir, 'workspace')
  readonly temp = join(this.dir, 'runner-temp')
  readonly envFile = join(this.dir, 'github-env')
  #steps = 0

  constructor(readonly actionPath = ROOT) {
    mkdirSync(this.workspace)
    mkdirSync(this.temp)
    writeFileSync(this.envFile, '')
  }

  /** what earlier steps exported */
  exported(): Record<string, string> {
    return parseRunnerFile(this.envFile)
  }

  /** runs one of action.yml's scripts (`main` or `post`) as a step with these inputs (and `state`, for post) */
  async step(script: 'main' | 'post', given: Record<string, string>, state: Record<string, string> = {}): Promise<StepResult> {
    const action = readAction(this.actionPath)
    const n = ++this.#steps
    const outputFile = join(this.dir, `output-${n}`)
    const stateFile = join(this.dir, `state-${n}`)
    const summaryFile = join(this.dir, `summary-${n}`)
    writeFileSync(outputFile, '')
    writeFileSync(stateFile, '')
    writeFileSync(summaryFile, '')
    const env = Object.fromEntries(Object.entries(clientEnv({})).filter(([k]) => !LEAKS.test(k)))
    for (const [name, decl] of Object.entries(action.inputs)) env[`INPUT_${name.replaceAll(' ', '_').toUpperCase()}`] = given[name] ?? decl.default ?? ''
    for (const name of Object.keys(given)) if (!(name in action.inputs)) throw new Error(`action.yml declares no input ${name}`)
    for (const [name, value] of Object.entries(state)) env[`STATE_${name}`] = value
    Object.assign(env, this.exported(), {
      GITHUB_ENV: this.envFile,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STATE: stateFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ACTION_PATH: this.actionPath,
      GITHUB_WORKSPACE: this.workspace,
      RUNNER_TEMP: this.temp,
      GITHUB_ACTIONS: 'true',
    })
    const child = spawn(process.execPath, [join(this.actionPath, action.runs[script])], { cwd: this.workspace, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    return { code, stdout, stderr, outputs: parseRunnerFile(outputFile), state: parseRunnerFile(stateFile), summary: readFileSync(summaryFile, 'utf8') }
  }
}
