import type { Kit } from '../charges/kit.js'
import type { Area } from '../http/area.js'
import { readJsonObject, validate } from '../http/body.js'
import { ok } from '../http/envelope.js'
import { bankTransferSchema } from './schemas.js'
import { TRANSFER_MSG } from './messages.js'
import { BankTransferService } from './service.js'

/** POST /merchant/api/v1/charges/bank-transfer (docs/behaviour.md 13.2) */
export const bankTransferArea: Area<{ bankTransfer: BankTransferService }, Kit> = {
  key: 'bank transfer',
  build: ({ store, clocks, scenarios, events, ledger, attempts }) => ({ bankTransfer: new BankTransferService(store, clocks, scenarios, events, ledger, attempts) }),
  routes: [
    {
      method: 'post', path: '/merchant/api/v1/charges/bank-transfer', access: 'secret key', tag: 'bank transfer', operationId: 'chargeBankTransfer',
      summary: 'Issue a temporary account the customer transfers to (NGN)', body: { name: 'BankTransferRequest', schema: bankTransferSchema },
      description: 'The charge is processing until a transfer arrives: by itself 120 s later on the namespace clock (unless `auto_complete` is false, or the pack says otherwise for the amount), or by the sandbox credit call. Less than expected is returned and the charge waits; more succeeds with the excess returned. The account expires after 30 minutes.',
      handler: async (c, { bankTransfer, namespaces }) => {
        const ns = c.get('ns')
        const input = validate(bankTransferSchema, await readJsonObject(c))
        // the account is in the merchant's name unless the request names it
        const charge = bankTransfer.create(ns, { ...input, account_name: input.account_name ?? namespaces.get(ns)?.name ?? 'Sandbox Merchant' })
        return ok(c, TRANSFER_MSG.INITIATED, bankTransfer.responseData(charge))
      },
    },
  ],
}
