import type { ContentfulStatusCode } from 'hono/utils/http-status'

import { MSG } from './messages.js'

// The one error type of the API and its constructors; the texts they carry are in messages.ts.

/** a bad field's reason, keyed by its dotted path: `{"card.number": "is required"}` */
export type FieldErrors = Record<string, string>

/**
 * The one error type of the API. `status` is the HTTP status, `error` the kind some refusals name
 * beside the message (`validation_error`, `conflict`: docs/behaviour.md#http), `code` the code the
 * service's samples write beside some (`AA021`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly data: unknown = null,
    readonly error?: string,
    /** null: written as `code: null`, as some samples do (the virtual accounts', the card charge's decrypt refusal) */
    readonly code?: string | null,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/**
 * `Invalid request data` (docs/behaviour.md#invalid-request-data, CONTRACT 15): HTTP 422, `error:
 * "validation_error"`, and in `data` one `{message}` per bad field, the message naming the field
 * (`{"amount": {"message": "amount is required"}}`). `fields` keeps the bare reasons.
 */
export class ValidationError extends ApiError {
  constructor(readonly fields: FieldErrors) {
    super(422, MSG.INVALID_REQUEST, Object.fromEntries(Object.entries(fields).map(([k, why]) => [k, { message: `${k} ${why}` }])), 'validation_error')
    this.name = 'ValidationError'
  }
}

export const invalid = (fields: FieldErrors): ValidationError => new ValidationError(fields)
export const badRequest = (message: string, data: unknown = null): ApiError => new ApiError(400, message, data)
export const notFound = (message: string): ApiError => new ApiError(404, message, null)
/** docs/behaviour.md#status-codes: a step on a payment that has already finished; a reused reference (with `code` where the samples show one). */
export const conflict = (message: string, code?: string): ApiError => new ApiError(409, message, null, undefined, code)
/**
 * docs/behaviour.md#payouts, CONTRACT 15: a payout refused as a business conflict (its amount outside
 * the limits, an invalid account): 409, `error: "conflict"`, `data: {status: "failed", message, reference}`.
 */
export const failedConflict = (message: string, reference: string): ApiError =>
  new ApiError(409, message, { status: 'failed', message, reference }, 'conflict')
/** docs/behaviour.md#http: a body over the route's limit. */
export const tooLarge = (limit: number): ApiError => new ApiError(413, MSG.BODY_TOO_LARGE, { limit_bytes: limit })
