// The dashboard's only script (served by assets.ts): actions through the control API, and the
// live fragment every 2 s. Plain browser JavaScript, no build step.
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
        // a validation refusal's fields: {message: "<field> <reason>"} each (docs/behaviour.md#invalid-request-data)
        const details = Object.values(json.data).filter((v) => v && typeof v.message === 'string').map((v) => v.message);
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
      const res = await fetch(location.pathname.replace(/\/$/, '') + '/fragment' + location.search, { headers: { accept: 'text/html' } });
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
