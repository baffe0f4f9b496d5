// Writes action.yml (the GitHub Action, docs/behaviour.md#github-action) from the option table: every flag
// of `sandbox start` (src/config-options.ts, built to dist/) is an input of the same name, beside
// the action's own inputs. `--check` writes nothing and exits 1 when action.yml differs from what
// it would write (test/e2e/action.test.ts runs it).
import { fileURLToPath } from 'node:url'
import { writeOrCheck } from './generated.mjs'
import { stringify } from 'yaml'
import { OPTIONS, optionName } from '../dist/config-options.js'

const FILE = fileURLToPath(new URL('../action.yml', import.meta.url))

const own = {
  command: {
    description: "start: install and start the sandbox, export how to reach it, replay the flows. stop: stop the sandbox an earlier step of this action started and write its journal (a step before the workflow's upload step; otherwise the post step stops it at the job's end)",
    default: 'start',
  },
  flows: {
    description: 'flow files or directories of them, one a line, replayed against the sandbox once it answers; their JUnit report goes to the reports directory and a failing flow fails the step',
    default: '',
  },
  'reports-dir': {
    description: 'where the pid file, the server log (sandbox.log), the JUnit report of the flows (flows.xml) and the journal (journal.json) go; relative to the workspace',
    default: 'sandbox-reports',
  },
  report: {
    description: "when the sandbox stops (a stop step, or the job's end): the readiness report of every namespace (sandbox report --all, docs/behaviour.md#readiness-report) as Markdown in the job's step summary. true: the report alone; or its gate, which fails the step when not met: --require card.otp,transfer.failed --min 50",
    default: '',
  },
  install: {
    description: "auto: npm ci in the action's checkout when node_modules is missing, npm run build when dist/ is missing or older than the sources, else nothing; always: npm ci; never: use the checkout as it is",
    default: 'auto',
  },
}

const inputs = { ...own }
for (const option of Object.values(OPTIONS)) {
  if (!option.flag) continue
  const long = optionName(option)
  const { kind, default: dflt } = option.reader
  const how = kind === 'switch' ? 'true or false' : kind === 'list' ? 'one a line' : undefined
  inputs[long.slice(2)] = {
    description: `${option.help} (sandbox start ${long}${how ? `; ${how}` : ''}${dflt === undefined ? '' : `; default ${dflt}`})`,
    required: false,
  }
}

const outputs = {
  url: 'the sandbox, http://127.0.0.1:PORT (also SANDBOX_URL)',
  'https-url': 'with tls: its HTTPS URL (also SANDBOX_HTTPS_URL)',
  'proxy-url': 'with proxy: the proxy (also HTTPS_PROXY)',
  'ca-cert': 'with tls or proxy: the local CA certificate (also NODE_EXTRA_CA_CERTS)',
  'secret-key': 'the secret key (also SANDBOX_SECRET_KEY)',
  'public-key': 'the public key (also SANDBOX_PUBLIC_KEY)',
  'encryption-key': 'the encryption key (also SANDBOX_ENCRYPTION_KEY)',
  'pid-file': 'the pid file of sandbox start --detach (also SANDBOX_PID_FILE)',
  'reports-dir': 'the reports directory, absolute',
  log: "the server's log",
  journal: 'where the journal of the secret key goes when the sandbox stops (journal.json)',
  junit: 'with flows: the JUnit report of the flows (flows.xml)',
}

const action = {
  name: 'paysandbox',
  description: 'Start a local sandbox of the Korapay API for the job: card, mobile money, bank transfer, direct debit, identity',
  author: 'paysandbox',
  branding: { icon: 'credit-card', color: 'green' },
  inputs,
  outputs: Object.fromEntries(Object.entries(outputs).map(([name, description]) => [name, { description }])),
  runs: { using: 'node20', main: 'action/main.mjs', post: 'action/post.mjs' },
}

const text = `# Generated from src/config-options.ts by scripts/action-yml.mjs (npm run action-yml): edit those.\n${stringify(action, { lineWidth: 0 })}`

writeOrCheck(FILE, text, 'action.yml differs from the option table: run npm run build && npm run action-yml')
