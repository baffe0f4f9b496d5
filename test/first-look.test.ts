import { describe, expect, it } from 'vitest'
import { pageId } from '../src/namespaces.js'
import { ref, sandboxPerTest, SECRET, type TestSandbox } from './helpers/sandbox.js'

/**
 * What a newcomer sees first on the dashboard (docs/behaviour.md#dashboard) and the checkout page
 * (docs/behaviour.md#checkout-page), read as a person reads them: no opening balance dated 1970, a status line that says
 * what the page is, buttons named in words, a namespace's count of charges that matches its list,
 * a checkout's history with each attempt once and in order, and the test values a page accepts.
 */

const sandbox = sandboxPerTest()
const INIT = '/merchant/api/v1/charges/initialize'
const ui = async (sb: TestSandbox) => {
  // a call makes the namespace, as a newcomer's first one does
  await sb.call('GET', '/merchant/api/v1/balances')
  return String((await sb.call('GET', `/_sandbox/ui?ns=${SECRET}`, undefined, { key: null })).body)
}
/** text without tags */
const text = (html: string) => html.replace(/<style>[\s\S]*?<\/style>/, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

async function checkout(sb: TestSandbox, currency = 'NGN') {
  const reference = ref('co')
  const res = await sb.call('POST', INIT, { reference, amount: 1500, currency, customer: { email: 'ada@example.com', name: 'Ada' } })
  expect(res.status).toBe(200)
  return { reference, path: new URL(res.body.data.checkout_url).pathname.replace('/checkout/', `/checkout/${pageId(SECRET)}/`) }
}

describe('the dashboard at first look', () => {
  it('dates no opening balance 1970-01-01: its history says "opening"', async () => {
    const sb = await sandbox()
    const history = (await ui(sb)).split('id="balance-history"')[1].split('</table>')[0]
    expect(history).toContain('Opening balance')
    expect(history).not.toContain('1970')
    expect(history).toContain('<td class="mono">opening</td>')
  })

  it("says in its status line which namespace it shows and what the buttons do, not only 'Actions answer here.'", async () => {
    const sb = await sandbox()
    const status = (await ui(sb)).split('id="status"')[1].split('</p>')[0]
    expect(text(status)).toContain('Sandbox Merchant (sk_test_sandbox): its lists below follow its calls live. The buttons call the control API with its key; their answers show here.')
  })

  it('names the button of pay with bank "Pay with bank", not "Pay by pay with bank"', async () => {
    const sb = await sandbox()
    const { reference } = await checkout(sb)
    const page = await ui(sb)
    expect(page).toContain(`aria-label="Pay ${reference} with bank"`)
    expect(page).toContain('>Pay with bank<')
    expect(page).toContain('>Pay by card<')
    expect(page).not.toContain('by pay with bank')
  })

  it("counts a namespace's charges as its list does: a checkout's attempts are under it, not more charges", async () => {
    const sb = await sandbox()
    const { reference } = await checkout(sb)
    expect((await sb.call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'card', outcome: 'failed' })).status).toBe(200)
    expect((await sb.call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'card' })).status).toBe(200)
    await sb.charge({ reference: ref('card'), card: { number: '4084127883172787', cvv: '123', expiry_month: '09', expiry_year: '30' }, amount: 1000, currency: 'NGN', customer: { email: 'a@example.com' } })
    const page = await ui(sb)
    // two charges: the checkout (its two attempts under it) and the card charge
    expect(page).toMatch(/<span class="muted small">· 2 charges<\/span>/)
    expect(page).toContain('a checkout&#39;s attempts under it (2)')
  })

  it("lists a checkout's attempts once each, in the order they were made", async () => {
    const sb = await sandbox()
    const { reference } = await checkout(sb)
    await sb.call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'card', outcome: 'failed' })
    await sb.call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'card' })
    const history = (await sb.call('GET', `/merchant/api/v1/charges/${reference}`)).body.data
    const co = [...sb.deps.store.col<{ payment_reference: string; history: { step: string; result: string }[]; attempts: { reference: string }[] }>(SECRET, 'charges').values()].find((c) => c.payment_reference === reference)!
    const [first, second] = co.attempts.map((a) => a.reference)
    expect(history.status).toBe('success')
    expect(co.history.map((h) => `${h.step} ${h.result}`)).toEqual([
      'created checkout initialized',
      `attempt ${first} failed: Card could not be charged due to insufficient funds`,
      `attempt ${second} succeeded`,
    ])
  })

  it('lists at most 200 namespaces and says how many there are, as its other lists are bounded', async () => {
    const sb = await sandbox()
    for (let i = 0; i < 201; i++) await sb.call('GET', '/merchant/api/v1/balances', undefined, { key: `sk_test_many${String(i).padStart(3, '0')}` })
    const html = String((await sb.call('GET', '/_sandbox/ui', undefined, { key: null })).body)
    expect(text(html)).toContain('200 of 201 namespaces listed')
    expect(html).toContain('href="/_sandbox/ui?ns=sk_test_many199"')
    expect(html).not.toContain('href="/_sandbox/ui?ns=sk_test_many200"')
  })
})

describe('the checkout page at first look', () => {
  it('shows the test values of the chosen channel, from the packs in force, collapsed', async () => {
    const sb = await sandbox()
    const { path } = await checkout(sb)
    const card = String((await sb.app.request(path).then((r) => r.text())))
    const box = card.split('<details class="tests">')[1].split('</details>')[0]
    expect(box).toContain('<summary>Test values this page accepts</summary>')
    expect(text(box)).toContain('Any future expiry date works. Asked for a PIN, 1234; an OTP, 123456.')
    expect(text(box)).toContain('4084127883172787 CVV 123: success, no authentication')
    expect(text(box)).toContain('506066506066506067 CVV 408: fails: insufficient funds')
    const bank = await sb.app.request(`${path}?channel=pay_with_bank`).then((r) => r.text())
    expect(text(bank.split('<details class="tests">')[1])).toContain('OPay (100004) NGN: approved, success')
    // a pack added at run time shows at once
    await sb.call('POST', '/_sandbox/scenarios', { cards: [{ number: '4000000000000002', scheme: 'visa', cvv: '321', expiry_month: '01', expiry_year: '31', outcome: 'failed', message: 'Declined', label: 'fails: my own card' }] })
    expect(text(await sb.app.request(path).then((r) => r.text()))).toContain('4000000000000002 CVV 321: fails: my own card')
  })

  it('styles the "Pay another way" link as a control, as every other one is', async () => {
    const sb = await sandbox()
    const { path } = await checkout(sb)
    const html = await sb.app.request(path).then((r) => r.text())
    expect(html).toMatch(/\.links a\{[^}]*border:2px solid[^}]*\}/)
  })
})
