/**
 * The checkout's public face: what the channels draw their part of the checkout page with
 * (docs/architecture.md, "Areas"). Its other files are its own.
 */
export { ActionForm, Alert, AtTheBank, Field, Waiting } from './page-views.js'
export { CHECKOUT_MSG } from './messages.js'
export { isCheckout, isOpen, type CheckoutCharge, type CheckoutService } from './service.js'
