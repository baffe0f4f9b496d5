/** The texts of the control API alone (docs/behaviour.md#control-api). */
export const CONTROL_MSG = {
  /** the health answer's (healthBody, control/info.ts) */
  RUNNING: 'paysandbox is running',
  RESET: 'Namespace reset',
  SNAPSHOT_RESTORED: 'Namespace restored from the snapshot',
  CLOCK_ADVANCED: 'Clock advanced',
  CLOCK_FROZEN: 'Clock frozen',
  CLOCK_RUNNING: 'Clock running',
  PACK_ADDED: 'Scenario pack added',
  PACKS_DROPPED: 'Added scenario packs dropped',
  WEBHOOK_URL_SET: 'Webhook URL set',
  WEBHOOK_URL_CLEARED: 'Webhook URL cleared',
  EVENT_DELIVERED: 'Event delivered',
  EVENT_DELIVERY_FAILED: 'Event delivery failed',
  FAULT_ADDED: 'Fault added',
  FAULTS_CLEARED: 'Faults cleared',
  FAULT_NOT_FOUND: 'Fault not found',
  FAULT_REMOVED: 'Fault removed',
  SETTLED: 'Transaction settled',
  completedAs: (status: string) => `Charge completed as ${status}`,
} as const

/** The webhook probe's texts (docs/behaviour.md#webhook-probe): its answer, and why each check passed or failed. */
export const PROBE_MSG = {
  answered: (passed: number, total: number, failed: string[]) => `Webhook probe: ${passed} of ${total} checks passed${failed.length ? ` (failed: ${failed.join(', ')})` : ''}`,
  answer: (d: { status_code?: number; error?: string; ms: number }) => (d.status_code !== undefined ? `answered ${d.status_code} in ${d.ms} ms` : `no answer (${d.error})`),
  notAccepted: (answer: string, timeoutMs: number) => `${answer}: a correctly signed event must be answered 2xx within ${timeoutMs} ms, or the service counts the delivery failed and sends it again`,
  refused: (answer: string) => `refused: ${answer}`,
  trustedSignature: (answer: string) =>
    `${answer} to a delivery whose x-korapay-signature does not verify: compute the hex HMAC-SHA256 of JSON.stringify(data) with your secret key, compare, and answer 401 when it differs`,
  noRefusal: (answer: string) => `${answer}: a delivery whose signature does not verify must be refused at once (401)`,
  queried: (answer: string, reference: string) => `queried ${reference} before it ${answer}`,
  trusted: (what: string, answer: string, reference: string) =>
    `${answer} without querying ${reference}: the handler trusts ${what}. The signature covers only data: query GET /merchant/api/v1/charges/{data.reference} and act on the status it answers (README, "Before you go live"), or refuse the delivery`,
  eventName: 'the event name',
  duplicate: 'a repeated delivery',
  outOfOrder: 'a late failed event over a success',
  inTime: (timeoutMs: number, slowest: number) => `every delivery answered within ${timeoutMs} ms (slowest ${slowest} ms)`,
  late: (late: number, total: number, timeoutMs: number) =>
    `${late} of ${total} deliveries had no answer within ${timeoutMs} ms: the service counts each failed and delivers it again (docs/behaviour.md#webhook-delivery). Answer 2xx first, then do the work`,
} as const
