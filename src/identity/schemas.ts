import { z } from '../http/zod-messages.js'

/** docs/api.md 2.12 and docs/behaviour.md 7. */
export const ID_TYPES = {
  ng_bvn: { path: 'ng/bvn', format: /^\d{11}$/, formatMessage: 'must be a BVN: 11 digits', message: 'BVN verified successfully', notFound: 'BVN not found' },
  ng_vnin: { path: 'ng/vnin', format: /^[A-Za-z]{2}\d{12}[A-Za-z]{2}$/, formatMessage: 'must be a vNIN: 2 letters, 12 digits, 2 letters', message: 'Virtual NIN verified successfully', notFound: 'Virtual NIN not found' },
  gh_passport: { path: 'gh/passport', format: /^[A-Za-z]\d{7}$/, formatMessage: 'must be a Ghana passport number: a letter and 7 digits', message: 'GH passport verified successfully', notFound: 'GH passport not found' },
} as const
export type IdType = keyof typeof ID_TYPES

export const MAX_SELFIE_BYTES = 3 * 1024 * 1024
export const CONSENT_REQUIRED = 'Verification consent is required: verification_consent must be true'

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`)
    return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d)
  }, 'must be a real calendar date')

/** kept as sent: `validation` echoes the input; the comparison trims */
const name = z.string().max(100, 'must be at most 100 characters').refine((v) => v.trim().length > 0, 'must not be empty')

/** The decoded image of a `data:image/(jpeg|png);base64,` URL, or an error message. */
export function decodeSelfie(value: string): { bytes: Buffer } | { error: string } {
  const m = /^data:image\/(jpeg|jpg|png);base64,([A-Za-z0-9+/]+={0,2})$/.exec(value)
  if (!m) return { error: 'must be a data URL: data:image/jpeg;base64,... or data:image/png;base64,...' }
  if (m[2].length % 4 !== 0) return { error: 'is not valid base64' }
  if ((m[2].length / 4) * 3 > MAX_SELFIE_BYTES + 3) return { error: 'must be at most 3 MiB once decoded' }
  const bytes = Buffer.from(m[2], 'base64')
  if (bytes.length > MAX_SELFIE_BYTES) return { error: 'must be at most 3 MiB once decoded' }
  const png = bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))
  const jpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff
  if (!png && !jpeg) return { error: 'must hold a JPEG or PNG image' }
  if ((m[1] === 'png') !== png) return { error: `does not hold the ${m[1].toUpperCase()} image its type says` }
  return { bytes }
}

export const identityRequestSchema = z.object({
  id: z.string().trim().min(1, 'is required').max(32, 'must be at most 32 characters'),
  verification_consent: z.unknown().optional(),
  validation: z
    .object({
      first_name: name,
      last_name: name,
      date_of_birth: date,
      selfie: z.string().superRefine((v, ctx) => {
        const r = decodeSelfie(v)
        if ('error' in r) ctx.addIssue({ code: 'custom', message: r.error })
      }).optional(),
    })
    .optional(),
})
export type IdentityRequest = z.infer<typeof identityRequestSchema>
