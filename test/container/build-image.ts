import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/**
 * The container project's global setup: builds paysandbox:local from the working tree once for the
 * run (`scripts/image.mjs`, what `npm run image` runs after the build; docker's layer cache makes
 * a build of an unchanged tree a few seconds). No docker, or a build that fails, fails the run:
 * these tests never skip (.ci/run installs and starts docker).
 */
export default function setup(): void {
  const script = fileURLToPath(new URL('../../scripts/image.mjs', import.meta.url))
  const built = spawnSync(process.execPath, [script], { stdio: ['ignore', 'inherit', 'inherit'] })
  if (built.error || built.status !== 0) throw new Error(`the image could not be built (scripts/image.mjs exited ${built.status ?? built.error?.message}): is docker installed and its daemon running? (docker info)`)
}
