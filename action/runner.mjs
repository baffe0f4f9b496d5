import { randomBytes } from 'node:crypto'
import { appendFileSync } from 'node:fs'

/**
 * The GitHub Actions runner's side of a JavaScript action, with node's standard library only (the
 * action starts before anything is installed): inputs arrive as `INPUT_<NAME>` variables (upper
 * case, spaces to underscores, dashes kept); variables for later steps, outputs and the state
 * handed to the post step are lines appended to the files `GITHUB_ENV`, `GITHUB_OUTPUT` and
 * `GITHUB_STATE` name; the post step reads the state as `STATE_<name>` variables.
 */

/** an input's value, trimmed; empty when not given and without a default */
export function input(name) {
  return (process.env[`INPUT_${name.replaceAll(' ', '_').toUpperCase()}`] ?? '').trim()
}

/** a multi-line input's non-empty lines (a list input: files, hosts) */
export function inputLines(name) {
  return input(name)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
}

/** `name=value`, or the delimited form a value with a line break needs */
function append(fileVariable, name, value) {
  const file = process.env[fileVariable]
  if (!file) throw new Error(`${fileVariable} is not set: this script runs as a step of a GitHub Actions job`)
  const text = String(value)
  if (!/[\r\n]/.test(text)) return appendFileSync(file, `${name}=${text}\n`)
  const delimiter = `ghadelimiter_${randomBytes(12).toString('hex')}`
  appendFileSync(file, `${name}<<${delimiter}\n${text}\n${delimiter}\n`)
}

/** a variable of every later step of the job (and of this process from now on) */
export function exportVariable(name, value) {
  append('GITHUB_ENV', name, value)
  process.env[name] = String(value)
}

export const setOutput = (name, value) => append('GITHUB_OUTPUT', name, value)
export const saveState = (name, value) => append('GITHUB_STATE', name, value)
/** what main saved under `name`, in the post step */
export const state = (name) => process.env[`STATE_${name}`] ?? ''

/** a workflow command's message: `%`, CR and LF escaped */
const escape = (text) => String(text).replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A')

/** an error annotation; the step fails (exit code 1) */
export function error(message) {
  process.stdout.write(`::error::${escape(message)}\n`)
  process.exitCode = 1
}

/** a value the runner hides in every later line of the job's log */
export const mask = (value) => process.stdout.write(`::add-mask::${escape(value)}\n`)

export const warning = (message) => process.stdout.write(`::warning::${escape(message)}\n`)
export const info = (line) => process.stdout.write(`${line}\n`)
