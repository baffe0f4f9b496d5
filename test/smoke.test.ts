import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardPayload, makeSandbox, type TestSandbox } from './helpers/sandbox.js'

describe('smoke', () => {
  let sb: TestSandbox
  beforeAll(async () => {
    sb = await makeSandbox()
  })
  afterAll(() => sb.close())

  it('charges the no-auth success card', async () => {
    const res = await sb.charge(cardPayload('4084127883172787'))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: true, message: 'Card charged successfully', data: { status: 'success', auth_model: 'NO_AUTH' } })
  })
})
