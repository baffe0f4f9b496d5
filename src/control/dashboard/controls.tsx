import type { FC } from 'hono/jsx'
import { SERVER_ERRORS, type API_KINDS } from '../../faults.js'
import { ActionButton, Field, Select } from '../../http/panel/ui.js'
import type { View } from './view.js'

/** The API fault kinds (typed: a new kind needs its label here), in the menu's order. */
const API_KIND_LABELS: Record<(typeof API_KINDS)[number], string> = { error: 'error (5xx)', latency: 'latency', drop: 'drop connection', commit_then_error: 'commit, then error' }

/**
 * A button that sends its form to the control API (dashboard.js); `clear`: a secondary one that
 * sends without the form's fields.
 */
const Send: FC<{ path: string; method?: string; body?: string; clear?: boolean; label: string; text: string }> = (p) => (
  <button type={p.clear ? 'button' : 'submit'} class={p.clear ? 'secondary' : undefined} data-path={p.path} data-method={p.method} data-body={p.body} data-nofields={p.clear ? '' : undefined} data-label={p.label}>
    {p.text}
  </button>
)

/** The actions: clock, webhook URL and the probe of its handler (docs/behaviour.md#webhook-probe), faults, reset (dashboard.js sends them to the control API). */
export const Controls: FC<{ v: View }> = ({ v }) => {
  const ns = v.ns?.secret_key
  return (
    <section class="panel" aria-labelledby="h-actions">
      <h2 id="h-actions">Actions{ns ? '' : ' (choose a namespace)'}</h2>
      <fieldset disabled={!ns}>
        <div class="group">
          <h3 style="margin-top:0">Clock</h3>
          <form data-action="" aria-label="Advance the clock">
            <div class="fields">
              <Field id="advance-seconds" label="Advance by (seconds)" name="seconds" type="number" value="60" min="0" required />
              <Send path="/_sandbox/clock/advance" label="Advance the clock" text="Advance clock" />
            </div>
          </form>
          <div class="row" style="margin-top:8px">
            <ActionButton path="/_sandbox/clock/advance" body={{ seconds: 3600 }} label="+1 hour" cls="secondary" name="Advance the clock by one hour" />
            <ActionButton path="/_sandbox/clock/advance" body={{ seconds: 86400 }} label="+1 day" cls="secondary" name="Advance the clock by one day" />
            <ActionButton path="/_sandbox/clock/freeze" body={{ frozen: true }} label="Freeze" cls="secondary" name="Freeze the clock" />
            <ActionButton path="/_sandbox/clock/freeze" body={{ frozen: false }} label="Unfreeze" cls="secondary" name="Unfreeze the clock" />
          </div>
        </div>
        <div class="group">
          <h3 style="margin-top:0">Webhook URL</h3>
          <form data-action="" aria-label="Webhook URL">
            <div class="fields">
              <Field id="webhook-url" label="URL" name="url" type="url" placeholder="http://127.0.0.1:3000/webhooks" wide required />
              <Send path="/_sandbox/webhook-url" method="PUT" label="Set the webhook URL" text="Set webhook URL" />
              <Send path="/_sandbox/webhook-url" method="PUT" body='{"url":null}' clear label="Clear the webhook URL" text="Clear webhook URL" />
              <Send path="/_sandbox/webhooks/probe" label="Probe the webhook handler at the URL" text="Probe handler" />
            </div>
          </form>
        </div>
        <div class="group">
          <h3 style="margin-top:0">Faults</h3>
          <form data-action="" aria-label="Inject a fault">
            <div class="fields">
              <Select id="fault-method" label="Method" name="method" value="POST" options={[['POST', 'POST'], ['GET', 'GET'], ['PUT', 'PUT'], ['DELETE', 'DELETE'], ['*', 'any']]} />
              <Select
                id="fault-kind"
                label="Fault kind"
                name="kind"
                value="error"
                options={Object.entries(API_KIND_LABELS)}
              />
              <Field id="fault-path" label="Path" name="path" value="/merchant/api/v1/charges/card" wide required />
              <Field id="fault-times" label="Times" name="times" type="number" value="1" min="1" />
              <Field id="fault-status" label="HTTP status (optional)" name="status" type="number" placeholder="500" />
              <Field id="fault-delay" label="Delay ms (latency)" name="delay_ms" type="number" placeholder="2000" />
              <Select
                id="fault-message"
                label="Message (error kinds)"
                name="message"
                value=""
                options={[['', 'the default'], ...SERVER_ERRORS.map((m): [string, string] => [m, m])]}
              />
            </div>
            <div class="row" style="margin-top:8px">
              <Send path="/_sandbox/faults" label="Inject the fault" text="Inject fault" />
              <Send path="/_sandbox/faults" method="DELETE" clear label="Clear the faults" text="Clear faults" />
            </div>
          </form>
        </div>
        <div class="group">
          <h3 style="margin-top:0">Namespace</h3>
          <ActionButton
            path="/_sandbox/reset"
            label="Reset namespace"
            cls="danger"
            name="Reset the namespace"
            confirm={`Empty ${ns ?? 'this namespace'} and seed its fixtures again?`}
          />
        </div>
      </fieldset>
    </section>
  )
}
