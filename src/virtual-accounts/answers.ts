import type { Frozen } from '../store/frozen.js'
import type { AccountHolder } from './holders.js'
import { USD_BANK } from './schemas.js'
import type { VirtualAccount } from './service.js'

/**
 * A virtual account as its calls answer it (docs/behaviour.md#virtual-accounts, docs/behaviour.md#virtual-accounts-usd-kes-tzs), by currency: an NGN
 * account flat, the same when read back with its customer's e-mail (`null` when none was given);
 * a USD or KES/TZS account `pending` in the create answer, as the collection's samples (the
 * sandbox reviews nothing: it is active at once, and read back so), a USD account read back with
 * its payment schemes (`holder`: its account holder).
 */
export function accountData(a: Frozen<VirtualAccount>, read: boolean, holder?: Frozen<AccountHolder>) {
  if (a.currency === 'USD') return read ? usdRead(a, holder!) : usdCreated(a)
  if (a.currency !== 'NGN' && !read) {
    return { bank_name: a.bank_name, account_reference: a.account_reference, unique_id: a.unique_id, account_status: 'pending', created_at: a.created_at, currency: a.currency }
  }
  return {
    account_name: a.account_name,
    account_number: a.account_number,
    bank_code: a.bank_code,
    bank_name: a.bank_name,
    account_reference: a.account_reference,
    unique_id: a.unique_id,
    account_status: a.account_status,
    created_at: a.created_at,
    currency: a.currency,
    customer: read ? { name: a.customer.name, email: a.customer.email ?? null } : { name: a.customer.name },
  }
}

function usdCreated(a: Frozen<VirtualAccount>) {
  return { tier: 1, account_reference: a.account_reference, unique_id: a.unique_id, account_status: 'pending', created_at: a.created_at, currency: a.currency, account_holder_reference: a.holder }
}

function usdRead(a: Frozen<VirtualAccount>, h: Frozen<AccountHolder>) {
  const scheme = { account_holder_name: a.account_name, account_number: a.account_number, memo: a.unique_id, bank_name: USD_BANK.bank_name, routing_code: USD_BANK.routing_code }
  return {
    account_name: null,
    account_number: a.account_number,
    account_status: a.account_status,
    account_reference: a.account_reference,
    unique_id: a.unique_id,
    iban: null,
    tier: 1,
    payment_schemes: {
      swift: null,
      ach: scheme,
      fedwire: {
        ...scheme,
        account_holder_address: { city: h.address.city, postal_code: h.address.zip, country_code: h.address.country, address_line1: h.address.address },
        bank_address: USD_BANK.bank_address,
      },
    },
    account_type: h.account_type,
    email: h.email,
    pending_upgrade_request: false,
    account_holder: { reference: h.reference },
    bank_code: null,
    currency: a.currency,
    created_at: a.created_at,
    customer: { name: a.customer.name, email: a.customer.email ?? null },
  }
}
