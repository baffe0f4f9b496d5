import './zod-messages.js'
import type { Context } from 'hono'
import type { z } from 'zod'
import { invalid, type FieldErrors } from './errors.js'

/** Reads a JSON object body. Malformed JSON or a non-object is `Invalid request data`. */
export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  let text: string
  try {
    text = await c.req.text()
  } catch {
    throw invalid({ body: 'could not be read' })
  }
  if (text.trim() === '') throw invalid({ body: 'is required: send a JSON object' })
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw invalid({ body: 'must be valid JSON' })
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid({ body: 'must be a JSON object' })
  c.set('body', value)
  return value as Record<string, unknown>
}

/** One entry per bad field, keyed by its dotted path (CONTRACT.md 2). */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {}
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : 'body'
    if (!(key in out)) out[key] = issue.message
  }
  return out
}

/** Validates with a zod schema; throws `Invalid request data` with field errors. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value)
  if (!r.success) throw invalid(fieldErrors(r.error))
  return r.data
}
