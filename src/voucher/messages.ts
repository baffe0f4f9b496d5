/** The texts of the voucher area alone (docs/behaviour.md#vouchers), as the service's samples write them. */
export const VOUCHER_MSG = {
  CHARGED: 'Charge Successful',
  PROVIDER_NOT_SUPPORTED: 'The selected provider is not supported',
  INVALID_PIN: 'The voucher pin you have entered is invalid',
  ALREADY_USED: 'The voucher has already been used',
  OVER_AMOUNT: 'The amount provided exceeds the required amount',
  /** its first history line */
  redeemed: (serial: string) => `voucher ${serial} redeemed`,
} as const
