import { Hono } from 'hono'
import { html, raw } from 'hono/html'
import type { Child, FC } from 'hono/jsx'
import { CARD_OPS, CHARGES, type CardCharge, type CardOperation, type ChargeBase, type PaymentMethod } from '../charges/types.js'
import type { Deps } from '../deps.js'
import { AUTHS, type DebitAuthorization, type DirectDebit, type Transition } from '../direct-debit/service.js'
import type { AppEnv } from '../http/context.js'
import { MSG } from '../errors.js'
import { CHECKS, type IdentityCheck } from '../identity/service.js'
import type { MobileMoneyCharge } from '../mobile-money/service.js'
import { toDecimalString } from '../money.js'
import type { NsMeta } from '../namespaces.js'
import type { EventRecord } from '../webhooks/events.js'

/**
 * The dashboard (CONTRACT.md 9): `GET /_sandbox/ui` and its live part `GET /_sandbox/ui/fragment`.
 * Server-rendered, no build step, nothing fetched from elsewhere. It takes no key: it sits behind
 * the loopback rule, lists every namespace, and the page's actions call the control API with
 * fetch(), sending the selected namespace's own key (namespaces are keys).
 */

const ROW_LIMIT = 200
/** SPEC.md 7.3: the messages an injected 5xx may carry. */
const FAULT_MESSAGES = [MSG.SERVICE_UNAVAILABLE, MSG.CONTACT_SUPPORT, MSG.TRY_AGAIN, MSG.INTERNAL]
const HOUR = 3_600_000
const KINDS: PaymentMethod[] = ['card', 'mobile_money', 'direct_debit']
const STATUSES = ['processing', 'success', 'failed'] as const
/** Which mandate moves each status allows (mirrors direct-debit/service.ts MOVES). */
const MOVES_FROM: Record<string, Transition[]> = {
  pending: ['approve', 'decline', 'deactivate'],
  active: ['suspend', 'deactivate'],
  suspended: ['reactivate', 'deactivate'],
}

interface Filters {
  kind?: PaymentMethod
  status?: (typeof STATUSES)[number]
  q?: string
}

interface View {
  nsList: NsMeta[]
  ns: NsMeta | undefined
  /** the ns query parameter, when it names no namespace */
  unknownNs?: string
  filters: Filters
  /** the control token the page was opened with (kept in links when the page is not on loopback) */
  token?: string
}

const STYLE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;background:#f3f5f8;color:#1b2330}
a{color:#0b4fb3}
header.top{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;padding:10px 20px;background:#10233f;color:#fff}
header.top h1{font-size:18px;margin:0}
header.top .ver{color:#aab8cf;font-size:12px}
#live-state{font-size:12px;color:#cfe0ff}
#live-state::before{content:"";display:inline-block;width:8px;height:8px;border-radius:50%;background:#3ccf7a;margin-right:6px;vertical-align:middle}
#live-state.paused::before{background:#f0b429}
.layout{display:grid;grid-template-columns:minmax(0,1fr);gap:16px;padding:16px;max-width:1600px;margin:0 auto}
@media (min-width:960px){.layout{grid-template-columns:280px minmax(0,1fr)}}
aside,.main{min-width:0;display:flex;flex-direction:column;gap:16px}
section.panel{background:#fff;border:1px solid #dfe4ec;border-radius:10px;padding:14px 16px;min-width:0}
h2{font-size:15px;margin:0 0 10px}
h3{font-size:14px;margin:14px 0 6px}
.muted{color:#5f6b7d}
.small{font-size:12px}
.key{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;overflow-wrap:anywhere}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:4px}
nav a{display:block;padding:6px 8px;border-radius:6px;text-decoration:none;color:inherit;border:1px solid transparent}
nav a:hover{background:#f0f4fa}
nav a[aria-current=page]{background:#e6efff;border-color:#b8cff5}
nav .name{font-weight:600;display:block}
form{margin:0}
fieldset{border:0;margin:0;padding:0;min-width:0}
.fields{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-end}
.field{display:flex;flex-direction:column;gap:2px;min-width:0;flex:1 1 120px}
.field.wide{flex-basis:100%}
label{font-size:12px;color:#4a5566;font-weight:600}
input,select{font:inherit;padding:6px 8px;border:1px solid #c4ccd8;border-radius:6px;background:#fff;min-width:0;width:100%;color:inherit}
button{font:inherit;font-weight:600;padding:6px 12px;border-radius:6px;border:1px solid #0b4fb3;background:#0b4fb3;color:#fff;cursor:pointer;white-space:nowrap}
button.secondary{background:#fff;color:#0b4fb3}
button.danger{background:#fff;color:#a11;border-color:#d9a3a3}
button.small{padding:2px 8px;font-size:12px}
button:disabled{opacity:.5;cursor:progress}
:focus-visible{outline:3px solid #f0b429;outline-offset:2px}
.row{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.group + .group{margin-top:12px;padding-top:12px;border-top:1px solid #edf0f4}
#status{position:sticky;top:0;z-index:5;margin:0;padding:8px 20px;background:#e3e9f2;border-bottom:1px solid #c9d3e1;overflow-wrap:anywhere;font-weight:600}
#status.ok{background:#dff3e6;color:#17633a;border-color:#b5dcc3}
#status.bad{background:#fbe3e3;color:#8a1c1c;border-color:#ebbcbc}
.scroll{overflow-x:auto;max-width:100%;border:1px solid #edf0f4;border-radius:8px}
table{border-collapse:collapse;width:100%;font-size:13px}
caption{text-align:left;padding:6px 8px;color:#5f6b7d;font-size:12px}
th,td{padding:6px 8px;text-align:left;vertical-align:top;border-bottom:1px solid #edf0f4;white-space:nowrap}
thead th{background:#f7f9fc;font-size:12px;color:#4a5566;position:sticky;top:0}
td.wrap{white-space:normal;min-width:200px}
td.wrap-s{white-space:normal;min-width:130px;max-width:220px}
td.ref{white-space:normal;overflow-wrap:anywhere;min-width:170px;max-width:250px}
td.url{white-space:normal;overflow-wrap:anywhere;min-width:150px;max-width:240px}
.sub{display:block;font-size:12px;color:#5f6b7d}
.strong{font-weight:600}
nav{max-height:min(40vh,420px);overflow-y:auto}
.jump{display:flex;flex-wrap:wrap;gap:4px 12px;font-size:12px}
.jump a{color:#cfe0ff}
h2[id]{scroll-margin-top:56px}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;padding:1px 8px;border-radius:999px;font-size:12px;font-weight:600;background:#eef1f5;color:#3b4658}
.b-success,.b-active,.b-delivered,.b-pre_authorized,.b-settled{background:#e4f6ea;color:#17633a}
.b-failed,.b-deactivated,.b-declined,.b-expired,.b-voided{background:#fbe7e7;color:#8a1c1c}
.b-processing,.b-pending,.b-suspended,.b-unsettled{background:#fff4d6;color:#7a5200}
.b-no_target{background:#eef1f5;color:#5f6b7d}
ol.steps{margin:0;padding-left:18px}
ol.steps li{margin:0}
ol.steps .step{font-weight:600}
ul.attempts{margin:0;padding-left:16px}
.actions{display:flex;flex-wrap:wrap;gap:4px}
.ledger{display:grid;grid-template-columns:repeat(auto-fit,minmax(120px,1fr));gap:8px;margin:6px 0 10px}
.ledger div{background:#f7f9fc;border-radius:6px;padding:6px 8px}
.ledger dt{font-size:11px;color:#5f6b7d}.ledger dd{margin:0;font-weight:600;font-variant-numeric:tabular-nums}
.preauth + .preauth{border-top:1px solid #edf0f4;margin-top:12px}
.empty{color:#5f6b7d;font-style:italic;margin:4px 0}
`

/* The page's only script: actions through the control API, and the live fragment every 2 s. */
const SCRIPT = `
(() => {
  const main = document.querySelector('main[data-ns]');
  const status = document.getElementById('status');
  const liveState = document.getElementById('live-state');
  const token = new URLSearchParams(location.search).get('token');
  let busy = false;
  let again = false;

  function say(text, ok) {
    status.textContent = text;
    status.className = ok ? 'ok' : 'bad';
  }

  function headers(withBody) {
    const h = { authorization: 'Bearer ' + main.dataset.ns, accept: 'application/json' };
    if (withBody) h['content-type'] = 'application/json';
    if (token) h['x-sandbox-control-token'] = token;
    return h;
  }

  function bodyOf(button) {
    let body = null;
    const form = button.form;
    if (form && !button.hasAttribute('data-nofields')) {
      for (const el of form.elements) {
        if (!el.name || el.disabled || el.type === 'submit' || el.type === 'button') continue;
        const v = el.value.trim();
        if (v === '') continue;
        body = body || {};
        body[el.name] = el.type === 'number' ? Number(v) : v;
      }
    }
    if (button.dataset.body) body = Object.assign(body || {}, JSON.parse(button.dataset.body));
    return body;
  }

  async function act(button) {
    if (!main.dataset.ns) return say('Choose a namespace first.', false);
    if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
    const body = bodyOf(button);
    button.disabled = true;
    status.className = '';
    status.textContent = (button.dataset.label || button.textContent.trim()) + '…';
    try {
      const res = await fetch(button.dataset.path, {
        method: button.dataset.method || 'POST',
        headers: headers(body !== null),
        body: body === null ? undefined : JSON.stringify(body),
      });
      let json = null;
      try { json = await res.json(); } catch { json = null; }
      let text = (json && json.message) || res.statusText || 'No answer';
      if (!res.ok && json && json.data && typeof json.data === 'object') {
        const details = Object.entries(json.data).filter(([, v]) => typeof v === 'string').map(([k, v]) => k + ' ' + v);
        if (details.length) text += ' (' + details.join('; ') + ')';
      }
      say((res.ok ? '' : res.status + ': ') + text, res.ok);
    } catch (e) {
      say('The call failed: ' + e.message, false);
    } finally {
      button.disabled = false;
      refresh();
    }
  }

  document.addEventListener('click', (e) => {
    const button = e.target.closest('button[data-path]');
    if (!button) return;
    e.preventDefault();
    act(button);
  });
  document.addEventListener('submit', (e) => {
    const form = e.target;
    if (!form.matches('form[data-action]')) return;
    e.preventDefault();
    const button = (e.submitter && e.submitter.dataset.path) ? e.submitter : form.querySelector('button[data-path]');
    if (button) act(button);
  });

  function typing() {
    const a = document.activeElement;
    return !!a && a.matches('input,select,textarea');
  }

  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    again = false;
    try {
      const res = await fetch(location.pathname.replace(/\\/$/, '') + '/fragment' + location.search, { headers: { accept: 'text/html' } });
      if (!res.ok) throw new Error('HTTP ' + res.status);
      const tpl = document.createElement('template');
      tpl.innerHTML = await res.text();
      const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : undefined;
      for (const next of tpl.content.querySelectorAll('[data-live]')) {
        const cur = document.querySelector('[data-live="' + next.dataset.live + '"]');
        if (cur && cur.innerHTML !== next.innerHTML) cur.replaceWith(next);
      }
      if (focused && (!document.activeElement || document.activeElement === document.body)) {
        const el = document.querySelector('[data-key="' + CSS.escape(focused) + '"]');
        if (el) el.focus();
      }
      liveState.textContent = 'Live: updated ' + new Date().toLocaleTimeString();
      liveState.className = '';
    } catch (e) {
      liveState.textContent = 'Live updates interrupted (' + e.message + ')';
      liveState.className = 'paused';
    } finally {
      busy = false;
      if (again) refresh();
    }
  }

  // the chosen namespace in view in a long list
  const current = document.querySelector('nav [aria-current=page]');
  if (current) current.scrollIntoView({ block: 'nearest' });

  setInterval(() => {
    if (document.hidden) return;
    if (typing()) {
      liveState.textContent = 'Live updates paused while you type';
      liveState.className = 'paused';
      return;
    }
    refresh();
  }, 2000);
})();
`

// ---------------------------------------------------------------------------------------------
// formatting

function money(minor: number, currency: string): string {
  const [whole, frac] = toDecimalString(minor).split('.')
  const neg = whole.startsWith('-')
  const digits = neg ? whole.slice(1) : whole
  return `${currency} ${neg ? '-' : ''}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`
}

const when = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '')

function duration(ms: number): string {
  const sign = ms < 0 ? '-' : '+'
  let s = Math.round(Math.abs(ms) / 1000)
  const d = Math.floor(s / 86400)
  s -= d * 86400
  const h = Math.floor(s / 3600)
  s -= h * 3600
  const m = Math.floor(s / 60)
  s -= m * 60
  return `${sign}${d ? `${d}d ` : ''}${h}h ${m}m ${s}s`
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

const Badge: FC<{ value: string }> = ({ value }) => <span class={`badge b-${value}`}>{value.replace(/_/g, ' ')}</span>

function instrument(c: ChargeBase): string {
  if (c.kind === 'card') {
    const card = (c as CardCharge).card
    return `${card.card_type} ${card.first_six}****${card.last_four}`
  }
  if (c.kind === 'mobile_money') return `wallet ${(c as MobileMoneyCharge).wallet.number}`
  const d = c as DirectDebit
  return `account ${d.account_number} (${d.authorization_code})`
}

function pendingStep(c: ChargeBase): string | undefined {
  if (c.status !== 'processing') return undefined
  const steps = (c as CardCharge | MobileMoneyCharge).pending_steps as string[] | undefined
  return steps?.[0]
}

function matchesRef(q: string | undefined, ...values: (string | null | undefined)[]): boolean {
  if (!q) return true
  const needle = q.toLowerCase()
  return values.some((v) => typeof v === 'string' && v.toLowerCase().includes(needle))
}

// ---------------------------------------------------------------------------------------------
// reading a namespace

function parseFilters(query: Record<string, string>): Filters {
  const f: Filters = {}
  if ((KINDS as string[]).includes(query.kind)) f.kind = query.kind as PaymentMethod
  if ((STATUSES as readonly string[]).includes(query.status)) f.status = query.status as Filters['status']
  const q = query.q?.trim()
  if (q) f.q = q.slice(0, 200)
  return f
}

function view(deps: Deps, query: Record<string, string>): View {
  const nsList = deps.namespaces.list()
  const wanted = query.ns
  const ns = wanted ? nsList.find((m) => m.secret_key === wanted) : nsList[0]
  return { nsList, ns, unknownNs: wanted && !ns ? wanted : undefined, filters: parseFilters(query), token: query.token || undefined }
}

const newestFirst = <T extends { created_at: string }>(rows: T[]) =>
  rows.map((r, i) => [r, i] as const).sort((a, b) => (a[0].created_at < b[0].created_at ? 1 : a[0].created_at > b[0].created_at ? -1 : b[1] - a[1])).map(([r]) => r)

function chargeMatches(c: ChargeBase, f: Filters): boolean {
  if (f.kind && c.kind !== f.kind) return false
  if (f.status && c.status !== f.status) return false
  return matchesRef(f.q, c.payment_reference, c.transaction_reference, (c as DirectDebit).authorization_code)
}

function nsHref(v: View, ns: string): string {
  const p = new URLSearchParams({ ns })
  if (v.token) p.set('token', v.token)
  return `/_sandbox/ui?${p}`
}

const enc = encodeURIComponent

// ---------------------------------------------------------------------------------------------
// live parts

const Namespaces: FC<{ v: View; deps: Deps }> = ({ v, deps }) => (
  <div data-live="namespaces">
    {v.nsList.length === 0 ? (
      <p class="empty">No namespace yet: any call with a key starting sk_test_ creates one.</p>
    ) : (
      <ul>
        {v.nsList.map((m) => (
          <li>
            <a href={nsHref(v, m.secret_key)} aria-current={v.ns?.secret_key === m.secret_key ? 'page' : undefined}>
              <span class="name">{m.name}</span>
              <span class="key">{m.secret_key}</span>{' '}
              <span class="muted small">· {plural(deps.store.col(m.secret_key, CHARGES).size, 'charge')}</span>
            </a>
          </li>
        ))}
      </ul>
    )}
  </div>
)

const ClockState: FC<{ deps: Deps; ns: string }> = ({ deps, ns }) => {
  const frozen = deps.clocks.frozenAt(ns) !== null
  const timers = deps.clocks.pending(ns)
  return (
    <div data-live="clock">
      <p style="margin:0">
        <time datetime={deps.clocks.iso(ns)} id="clock-now">
          {when(deps.clocks.iso(ns))}
        </time>{' '}
        <span class="badge" id="clock-state">
          {frozen ? 'frozen' : 'running'}
        </span>
      </p>
      <p class="muted small" style="margin:4px 0 0">
        Offset from wall clock {duration(deps.clocks.offset(ns))}; {plural(timers.length, 'pending timer')}
        {timers.length ? `, next: ${timers[0].kind} at ${when(new Date(timers[0].due).toISOString())}` : ''}
      </p>
    </div>
  )
}

const ActionButton: FC<{ path: string; label: string; name: string; body?: unknown; method?: string; cls?: string; confirm?: string }> = (p) => (
  <button
    type="button"
    class={`small ${p.cls ?? ''}`.trim()}
    data-path={p.path}
    data-method={p.method ?? 'POST'}
    data-body={p.body === undefined ? undefined : JSON.stringify(p.body)}
    data-confirm={p.confirm}
    data-key={`${p.path}|${JSON.stringify(p.body ?? null)}`}
    data-label={p.name}
    aria-label={p.name}
  >
    {p.label}
  </button>
)

function Table(props: { caption: string; head: (string | [string, string])[]; rows: Child[]; total: number; empty: string; id: string }) {
  if (!props.rows.length) return <p class="empty" id={props.id}>{props.empty}</p>
  return (
    <div class="scroll" role="region" aria-label={props.caption} tabindex={0}>
      <table id={props.id}>
        <caption>
          {props.caption}
          {props.total > props.rows.length ? ` (the newest ${props.rows.length} of ${props.total})` : ` (${props.total})`}
        </caption>
        <thead>
          <tr>
            {props.head.map((h) => (typeof h === 'string' ? <th scope="col">{h}</th> : <th scope="col" class={h[1]}>{h[0]}</th>))}
          </tr>
        </thead>
        <tbody>{props.rows}</tbody>
      </table>
    </div>
  )
}

const Charges: FC<{ deps: Deps; ns: string; f: Filters }> = ({ deps, ns, f }) => {
  const all = newestFirst([...deps.store.col<ChargeBase>(ns, CHARGES).values()].filter((c) => chargeMatches(c, f)))
  const rows = all.slice(0, ROW_LIMIT).map((c) => {
    const step = pendingStep(c)
    const tx = c.transaction_reference
    return (
      <tr data-ref={c.payment_reference} data-kind={c.kind} data-status={c.status}>
        <td class="ref">
          <span class="mono strong">{c.payment_reference}</span>
          <span class="sub mono">{tx}</span>
          <span class="sub">{when(c.created_at)}</span>
        </td>
        <td class="wrap-s">
          {c.kind.replace('_', ' ')}
          <span class="sub mono">{instrument(c)}</span>
        </td>
        <td class="num">{money(c.amount, c.currency)}</td>
        <td class="wrap-s">
          <Badge value={c.status} />
          {c.failure_message ? <div class="small muted">{c.failure_message}</div> : ''}
          {step ? <div class="small">waiting for {step}</div> : ''}
          {c.status === 'processing' ? (
            <div class="actions" style="margin-top:4px">
              <ActionButton path={`/_sandbox/charges/${enc(tx)}/complete`} body={{ outcome: 'success' }} label="Succeed" name={`Complete ${c.payment_reference} as success`} />
              <ActionButton path={`/_sandbox/charges/${enc(tx)}/complete`} body={{ outcome: 'failed' }} label="Fail" cls="danger" name={`Complete ${c.payment_reference} as failed`} />
              {step === '3DS' ? (
                <a class="small" href={`/_sandbox/3ds/${enc(tx)}`} target="_blank" rel="noopener">
                  Open the 3DS page
                </a>
              ) : (
                ''
              )}
            </div>
          ) : (
            ''
          )}
        </td>
        <td class="wrap">
          <ol class="steps">
            {c.history.map((h) => (
              <li title={h.at}>
                <span class="step">{h.step}</span> {h.result}
              </li>
            ))}
          </ol>
        </td>
      </tr>
    )
  })
  return (
    <Table
      id="charges"
      caption="Charges, newest first; under each payment reference, its transaction reference and creation time"
      head={['Reference', 'Kind', ['Amount', 'num'], 'Status and actions', 'Steps taken']}
      rows={rows}
      total={all.length}
      empty="No charges match."
    />
  )
}

function captureState(deps: Deps, ns: string, op: CardOperation): 'voided' | 'settled' | 'unsettled' {
  if (op.voided) return 'voided'
  if (op.settled) return 'settled'
  const delay = deps.scenarios.forNs(ns).settings.settlement_delay_hours * HOUR
  return deps.clocks.now(ns) >= Date.parse(op.created_at) + delay ? 'settled' : 'unsettled'
}

const Preauths: FC<{ deps: Deps; ns: string; f: Filters }> = ({ deps, ns, f }) => {
  if (f.kind && f.kind !== 'card') return <p class="empty">Hidden by the kind filter.</p>
  const ops = deps.store.col<CardOperation>(ns, CARD_OPS)
  const list = newestFirst(
    [...deps.store.col<CardCharge>(ns, CHARGES).values()].filter(
      (c) => c.kind === 'card' && c.operation === 'pre_authorization' && (!f.status || c.status === f.status) && (matchesRef(f.q, c.payment_reference, c.transaction_reference) || (c.preauth?.operations ?? []).some((r) => matchesRef(f.q, r))),
    ),
  ).slice(0, ROW_LIMIT)
  if (!list.length) return <p class="empty" id="preauths">No pre-authorizations match.</p>
  return (
    <div id="preauths">
      {list.map((c) => {
        const l = c.preauth
        const rows = (l?.operations ?? []).map((r) => ops.get(r)).filter((o): o is CardOperation => !!o).map((o) => {
          const state = o.charge_operation === 'capture' ? captureState(deps, ns, o) : undefined
          return (
            <tr data-ref={o.transaction_reference}>
              <td>{o.charge_operation.replace(/_/g, ' ')}</td>
              <td class="mono">{o.transaction_reference}</td>
              <td class="num">{money(o.amount, o.currency)}</td>
              <td>
                <Badge value={o.status} /> {state ? <Badge value={state} /> : ''}
              </td>
              <td class="num">{o.refunded ? money(o.refunded, o.currency) : ''}</td>
              <td class="mono">{o.target_transaction_reference ?? ''}</td>
              <td class="small">{when(o.created_at)}</td>
              <td>{state === 'unsettled' ? <ActionButton path={`/_sandbox/captures/${enc(o.transaction_reference)}/settle`} label="Settle" name={`Settle capture ${o.transaction_reference}`} /> : ''}</td>
            </tr>
          )
        })
        return (
          <article class="preauth" data-ref={c.payment_reference}>
            <h3>
              <span class="mono">{c.payment_reference}</span> <Badge value={c.status === 'success' && l ? l.state : c.status} />
            </h3>
            <p class="small muted" style="margin:0">
              {c.card.card_type} {c.card.first_six}****{c.card.last_four} · transaction <span class="mono">{c.transaction_reference}</span>
              {l ? ` · hold expires ${when(new Date(l.expires_at).toISOString())}` : ''}
              {l?.zero_auth ? ' · zero auth' : ''}
            </p>
            {l ? (
              <dl class="ledger">
                <div>
                  <dt>Authorized</dt>
                  <dd>{money(l.authorized, c.currency)}</dd>
                </div>
                <div>
                  <dt>Captured</dt>
                  <dd>{money(l.captured, c.currency)}</dd>
                </div>
                <div>
                  <dt>Refunded</dt>
                  <dd>{money(l.refunded, c.currency)}</dd>
                </div>
                <div>
                  <dt>Left to capture</dt>
                  <dd>{money(l.state === 'pre_authorized' ? l.authorized - l.captured : 0, c.currency)}</dd>
                </div>
              </dl>
            ) : (
              <p class="empty">No hold: {c.status === 'processing' ? `waiting for ${pendingStep(c) ?? 'its steps'}` : c.failure_message ?? c.status}.</p>
            )}
            {l ? (
              <Table
                id={`ops-${c.transaction_reference}`}
                caption={`Operations on ${c.payment_reference}`}
                head={['Operation', 'Transaction reference', ['Amount', 'num'], 'Status', ['Refunded', 'num'], 'Target', 'At', 'Actions']}
                rows={rows}
                total={rows.length}
                empty="No captures, voids or refunds yet."
              />
            ) : (
              ''
            )}
          </article>
        )
      })}
    </div>
  )
}

const Mandates: FC<{ deps: Deps; ns: string; f: Filters }> = ({ deps, ns, f }) => {
  const all = newestFirst([...deps.store.col<DebitAuthorization>(ns, AUTHS).values()].filter((a) => matchesRef(f.q, a.reference)))
  const rows = all.slice(0, ROW_LIMIT).map((a) => (
    <tr data-ref={a.reference} data-status={a.status}>
      <td>
        <span class="mono strong">{a.reference}</span>
        <span class="sub">
          {a.type}, {a.start_date} to {a.end_date}
        </span>
      </td>
      <td class="wrap-s">
        <Badge value={a.status} />
        {a.status_update_reason ? <div class="small muted">{a.status_update_reason}</div> : ''}
      </td>
      <td class="num">{money(a.amount, a.currency)}</td>
      <td class="wrap-s">
        {a.account_name}
        <span class="sub mono">
          {a.account_number} · {a.bank_name}
        </span>
      </td>
      <td>
        <div class="actions">
          {(MOVES_FROM[a.status] ?? []).map((m) => (
            <ActionButton
              path={`/_sandbox/direct-debit/authorizations/${enc(a.reference)}/${m}`}
              label={m[0].toUpperCase() + m.slice(1)}
              name={`${m[0].toUpperCase() + m.slice(1)} mandate ${a.reference}`}
              cls={m === 'decline' || m === 'deactivate' ? 'danger' : m === 'suspend' ? 'secondary' : ''}
            />
          ))}
        </div>
      </td>
    </tr>
  ))
  return (
    <Table
      id="mandates"
      caption="Authorizations (mandates)"
      head={['Reference', 'Status', ['Ceiling', 'num'], 'Account', 'Actions']}
      rows={rows}
      total={all.length}
      empty="No authorizations match."
    />
  )
}

const Debits: FC<{ deps: Deps; ns: string; f: Filters }> = ({ deps, ns, f }) => {
  if (f.kind && f.kind !== 'direct_debit') return <p class="empty">Hidden by the kind filter.</p>
  const all = newestFirst([...deps.store.col<DirectDebit>(ns, CHARGES).values()].filter((c) => c.kind === 'direct_debit' && chargeMatches(c, f)))
  const rows = all.slice(0, ROW_LIMIT).map((d) => (
    <tr data-ref={d.payment_reference}>
      <td class="ref">
        <span class="mono">{d.payment_reference}</span>
        <span class="sub">{when(d.created_at)}</span>
      </td>
      <td class="mono">{d.authorization_code}</td>
      <td class="num">{money(d.amount, d.currency)}</td>
      <td>
        <Badge value={d.status} />
        {d.failure_message ? <div class="small muted">{d.failure_message}</div> : ''}
      </td>
      <td>{d.narration}</td>
      <td class="mono small">{d.interbank_transaction_id}</td>
    </tr>
  ))
  return (
    <Table
      id="debits"
      caption="Debits"
      head={['Reference', 'Authorization', ['Amount', 'num'], 'Status', 'Narration', 'Interbank id']}
      rows={rows}
      total={all.length}
      empty="No debits match."
    />
  )
}

const Identity: FC<{ deps: Deps; ns: string; f: Filters }> = ({ deps, ns, f }) => {
  const all = newestFirst([...deps.store.col<IdentityCheck>(ns, CHECKS).values()].filter((c) => matchesRef(f.q, c.reference, c.id)))
  const rows = all.slice(0, ROW_LIMIT).map((c) => (
    <tr data-ref={c.reference}>
      <td class="mono">{c.reference}</td>
      <td>{c.id_type.replace('_', ' ').toUpperCase()}</td>
      <td class="mono">{c.id}</td>
      <td>
        <Badge value={c.found ? 'found' : 'not_found'} />
      </td>
      <td>{c.mode}</td>
      <td>
        {Object.entries(c.matches)
          .map(([k, m]) => `${k} ${m ? '✓' : '✗'}`)
          .join(', ') || '—'}
      </td>
      <td class="small">{when(c.created_at)}</td>
    </tr>
  ))
  return (
    <Table id="identity" caption="Identity checks" head={['Reference', 'Type', 'ID', 'Result', 'Mode', 'Matches', 'At']} rows={rows} total={all.length} empty="No identity checks match." />
  )
}

const Events: FC<{ deps: Deps; ns: string; f: Filters }> = ({ deps, ns, f }) => {
  const all = deps.events
    .list(ns)
    .filter((e) => matchesRef(f.q, e.data.reference as string, e.data.payment_reference as string, e.data.authorization_code as string))
    .reverse()
  const rows = all.slice(0, ROW_LIMIT).map((e: EventRecord) => {
    const ref = String(e.data.payment_reference ?? e.data.reference ?? '')
    return (
      <tr data-event={e.id} data-ref={ref}>
        <td>
          {e.event}
          <span class="sub mono">{e.id}</span>
        </td>
        <td class="ref">
          <span class="mono">{ref}</span>
          <span class="sub">{when(e.created_at)}</span>
        </td>
        <td>
          <Badge value={e.status} />
        </td>
        <td class="mono small url">{e.target ?? 'no URL'}</td>
        <td class="wrap">
          {e.attempts.length ? (
            <ul class="attempts">
              {e.attempts.map((a) => (
                <li>
                  {when(a.at)}: {a.status_code !== undefined ? `HTTP ${a.status_code}` : a.error} in {a.ms} ms
                </li>
              ))}
            </ul>
          ) : (
            <span class="muted">none</span>
          )}
        </td>
        <td>
          <ActionButton path={`/_sandbox/events/${enc(e.id)}/resend`} label="Resend" cls="secondary" name={`Resend event ${e.id}`} />
        </td>
      </tr>
    )
  })
  return (
    <Table
      id="events"
      caption="Events, newest first"
      head={['Event', 'Reference', 'Delivery', 'Target', 'Attempts', 'Actions']}
      rows={rows}
      total={all.length}
      empty="No events match."
    />
  )
}

const Data: FC<{ v: View; deps: Deps }> = ({ v, deps }) => {
  if (!v.ns) {
    return (
      <div data-live="data" class="main">
        <section class="panel">
          <h2>No namespace selected</h2>
          <p class="empty">{v.unknownNs ? `There is no namespace ${v.unknownNs}.` : 'Nothing has called the sandbox yet.'}</p>
        </section>
      </div>
    )
  }
  const ns = v.ns.secret_key
  const f = v.filters
  return (
    <div data-live="data" class="main">
      <section class="panel" aria-labelledby="h-charges">
        <h2 id="h-charges">Charges</h2>
        <Charges deps={deps} ns={ns} f={f} />
      </section>
      <section class="panel" aria-labelledby="h-preauth">
        <h2 id="h-preauth">Pre-authorizations</h2>
        <Preauths deps={deps} ns={ns} f={f} />
      </section>
      <section class="panel" aria-labelledby="h-dd">
        <h2 id="h-dd">Direct debit</h2>
        <Mandates deps={deps} ns={ns} f={f} />
        <h3>Debits</h3>
        <Debits deps={deps} ns={ns} f={f} />
      </section>
      <section class="panel" aria-labelledby="h-identity">
        <h2 id="h-identity">Identity checks</h2>
        <Identity deps={deps} ns={ns} f={f} />
      </section>
      <section class="panel" aria-labelledby="h-events">
        <h2 id="h-events">Events and deliveries</h2>
        <Events deps={deps} ns={ns} f={f} />
      </section>
    </div>
  )
}

const WebhookState: FC<{ v: View }> = ({ v }) => (
  <div data-live="webhook">
    <p class="small muted" style="margin:6px 0 0">
      Webhook URL: {v.ns?.webhook_url ? <span class="key">{v.ns.webhook_url}</span> : 'none (events are recorded, not delivered)'}
    </p>
  </div>
)

const Live: FC<{ v: View; deps: Deps }> = ({ v, deps }) => (
  <>
    <Namespaces v={v} deps={deps} />
    {v.ns ? <ClockState deps={deps} ns={v.ns.secret_key} /> : <div data-live="clock" />}
    <WebhookState v={v} />
    <Data v={v} deps={deps} />
  </>
)

// ---------------------------------------------------------------------------------------------
// the page

const Field: FC<{ id: string; label: string; name: string; type?: string; value?: string; placeholder?: string; wide?: boolean; required?: boolean; min?: string }> = (p) => (
  <div class={p.wide ? 'field wide' : 'field'}>
    <label for={p.id}>{p.label}</label>
    <input id={p.id} name={p.name} type={p.type ?? 'text'} value={p.value} placeholder={p.placeholder} required={p.required} min={p.min} step={p.type === 'number' ? 'any' : undefined} autocomplete="off" />
  </div>
)

const Select: FC<{ id: string; label: string; name: string; options: [string, string][]; value?: string }> = (p) => (
  <div class="field">
    <label for={p.id}>{p.label}</label>
    <select id={p.id} name={p.name}>
      {p.options.map(([value, text]) => (
        <option value={value} selected={value === (p.value ?? '')}>
          {text}
        </option>
      ))}
    </select>
  </div>
)

const Controls: FC<{ v: View }> = ({ v }) => {
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
              <button type="submit" data-path="/_sandbox/clock/advance" data-label="Advance the clock">
                Advance clock
              </button>
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
              <button type="submit" data-path="/_sandbox/webhook-url" data-method="PUT" data-label="Set the webhook URL">
                Set webhook URL
              </button>
              <button type="button" class="secondary" data-path="/_sandbox/webhook-url" data-method="PUT" data-body='{"url":null}' data-nofields="" data-label="Clear the webhook URL">
                Clear webhook URL
              </button>
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
                options={[['error', 'error (5xx)'], ['latency', 'latency'], ['drop', 'drop connection'], ['commit_then_error', 'commit, then error']]}
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
                options={[['', 'the default'], ...FAULT_MESSAGES.map((m): [string, string] => [m, m])]}
              />
            </div>
            <div class="row" style="margin-top:8px">
              <button type="submit" data-path="/_sandbox/faults" data-label="Inject the fault">
                Inject fault
              </button>
              <button type="button" class="secondary" data-path="/_sandbox/faults" data-method="DELETE" data-nofields="" data-label="Clear the faults">
                Clear faults
              </button>
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

const FilterForm: FC<{ v: View }> = ({ v }) => (
  <section class="panel" aria-labelledby="h-filters">
    <h2 id="h-filters">Filters</h2>
    <form method="get" action="/_sandbox/ui" role="search" aria-label="Filter the lists">
      {v.ns ? <input type="hidden" name="ns" value={v.ns.secret_key} /> : ''}
      {v.token ? <input type="hidden" name="token" value={v.token} /> : ''}
      <div class="fields">
        <Select id="filter-kind" label="Kind" name="kind" value={v.filters.kind} options={[['', 'all kinds'], ['card', 'card'], ['mobile_money', 'mobile money'], ['direct_debit', 'direct debit']]} />
        <Select id="filter-status" label="Status" name="status" value={v.filters.status} options={[['', 'all statuses'], ['processing', 'processing'], ['success', 'success'], ['failed', 'failed']]} />
        <Field id="filter-q" label="Reference contains" name="q" value={v.filters.q} placeholder="payment or transaction reference" />
        <button type="submit">Apply filters</button>
        <a href={v.ns ? nsHref(v, v.ns.secret_key) : '/_sandbox/ui'} class="small">
          Clear
        </a>
      </div>
    </form>
    <p class="small muted" style="margin:8px 0 0">
      Kind and status narrow charges, pre-authorizations and debits; the reference also narrows mandates, identity checks and events.
    </p>
  </section>
)

const Page: FC<{ v: View; deps: Deps }> = ({ v, deps }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{v.ns ? `${v.ns.name} · paysandbox dashboard` : 'paysandbox dashboard'}</title>
      <style>{raw(STYLE)}</style>
    </head>
    <body>
      <header class="top">
        <h1>paysandbox dashboard</h1>
        <span class="ver">v{deps.version}</span>
        <span id="live-state" aria-live="off">
          Live
        </span>
        <nav class="jump" aria-label="Sections">
          <a href="#h-charges">Charges</a>
          <a href="#h-preauth">Pre-authorizations</a>
          <a href="#h-dd">Direct debit</a>
          <a href="#h-identity">Identity</a>
          <a href="#h-events">Events</a>
          <a href="#h-actions">Actions</a>
        </nav>
      </header>
      <p id="status" role="status" aria-live="polite">
        Actions answer here.
      </p>
      <main data-ns={v.ns?.secret_key ?? ''}>
        <div class="layout">
          <aside>
            <section class="panel" aria-labelledby="h-ns">
              <h2 id="h-ns">Namespaces</h2>
              <nav aria-label="Namespaces">
                <Namespaces v={v} deps={deps} />
              </nav>
            </section>
            <section class="panel" aria-labelledby="h-selected">
              <h2 id="h-selected">{v.ns ? v.ns.name : 'No namespace'}</h2>
              {v.ns ? <p class="key" style="margin:0 0 8px">{v.ns.secret_key}</p> : ''}
              {v.ns ? <ClockState deps={deps} ns={v.ns.secret_key} /> : <div data-live="clock" />}
              <WebhookState v={v} />
            </section>
            <Controls v={v} />
            <noscript>
              <p>The actions and the live updates need JavaScript; the lists work without it.</p>
            </noscript>
          </aside>
          <div class="main">
            <FilterForm v={v} />
            <Data v={v} deps={deps} />
          </div>
        </div>
      </main>
      <script>{raw(SCRIPT)}</script>
    </body>
  </html>
)

export function dashboardRoutes(deps: Deps) {
  const app = new Hono<AppEnv>()
  app.get('/', (c) => {
    const v = view(deps, c.req.query())
    c.header('cache-control', 'no-store')
    return c.html(html`<!doctype html>${<Page v={v} deps={deps} />}`)
  })
  app.get('/fragment', (c) => {
    const v = view(deps, c.req.query())
    c.header('cache-control', 'no-store')
    return c.html(<Live v={v} deps={deps} />)
  })
  return app
}
