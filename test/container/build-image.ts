import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** why the image could not be built, or '' once it is */
    imageError: string
  }
}

/**
 * The container project's global setup: builds paysandbox:local from the working tree once for the
 * run (`scripts/image.mjs`, what `npm run image` runs after the build; docker's layer cache makes
 * a build of an unchanged tree a few seconds). No docker, or a build that fails, fails every test
 * of the project (test/container/image-built.ts asks `imageError` before each file): they never skip
 * (.ci/run installs and starts docker), and the other projects still run and report.
 */
export default function setup(project: TestProject): void {
  const script = fileURLToPath(new URL('../../scripts/image.mjs', import.meta.url))
  const built = spawnSync(process.execPath, [script], { stdio: ['ignore', 'inherit', 'inherit'] })
  const failed = built.error || built.status !== 0
  project.provide(
    'imageError',
    failed ? `the image could not be built (scripts/image.mjs: ${built.error?.message ?? `exit ${built.status}`}): is docker installed and its daemon running? (docker info)` : '',
  )
}
