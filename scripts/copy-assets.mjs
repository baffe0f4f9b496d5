// tsc compiles src/ into dist/ and copies nothing else: the files the code reads beside itself
// (the dashboard's stylesheet and browser script, see src/control/dashboard/assets.ts) are copied here.
import { cpSync } from 'node:fs'

for (const file of ['control/dashboard/dashboard.css', 'control/dashboard/dashboard.js']) {
  cpSync(new URL(`../src/${file}`, import.meta.url), new URL(`../dist/${file}`, import.meta.url))
}
