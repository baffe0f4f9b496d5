import { z } from 'zod'

/**
 * Short field messages in plain words ("is required", "must be a string"), not zod's own
 * ("Invalid input: expected string, received undefined"): for `Invalid request data` and for a
 * refused scenario pack alike (docs/behaviour.md#scenario-packs), so every schema, the API's and the packs', imports `z` from here.
 */
z.config({
  customError: (iss) => {
    switch (iss.code) {
      case 'invalid_type':
        if (iss.input === undefined) return 'is required'
        if (iss.input === null) return `must be ${/^[aeiou]/.test(iss.expected) ? 'an' : 'a'} ${iss.expected}, not null`
        if (iss.expected === 'int') return 'must be a whole number'
        return `must be ${/^[aeiou]/.test(iss.expected) ? 'an' : 'a'} ${iss.expected}`
      case 'invalid_value':
        return `must be ${iss.values.length === 1 ? JSON.stringify(iss.values[0]) : `one of ${iss.values.map((v) => JSON.stringify(v)).join(', ')}`}`
      case 'invalid_format':
        if (iss.format === 'email') return 'must be a valid e-mail address'
        if (iss.format === 'url') return 'must be a valid URL'
        return undefined
      case 'unrecognized_keys':
        return `unknown field${iss.keys.length > 1 ? 's' : ''}: ${iss.keys.join(', ')}`
      default:
        return undefined
    }
  },
})

export { z }
