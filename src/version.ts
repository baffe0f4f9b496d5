import { readFileSync } from 'node:fs'

/** The package's version (read once; nothing else loaded, so the CLI starts fast). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
