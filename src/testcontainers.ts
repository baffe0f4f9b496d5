import { basename, resolve } from 'node:path'
import { AbstractStartedContainer, GenericContainer, Wait, type StartedTestContainer } from 'testcontainers'
import { servedKeys } from './config.js'
import { OPTIONS } from './config-options.js'

/**
 * `paysandbox/testcontainers` (README, "Testcontainers"): the container image (`npm run image`,
 * docs/behaviour.md#container-image) as a Testcontainers module for Node. `testcontainers` is an optional peer
 * dependency: only this entry imports it.
 *
 *   const sandbox = await new PaysandboxContainer().withScenarios('packs/cards.yaml').start()
 *   sandbox.getUrl(), sandbox.getSecretKey(), sandbox.getPublicKey(), sandbox.getEncryptionKey()
 *
 * Every other setting is its `SANDBOX_*` variable, given with `withEnvironment`.
 */

/** the image `npm run image` builds */
export const PAYSANDBOX_IMAGE = 'paysandbox:local'

/** the HTTP port inside the container (the image's default) */
const HTTP_PORT = 4010

/** where the files given to the container go in it */
const FILES_DIR = '/paysandbox'

/** the name the host's gateway has inside the container (docker's `host-gateway`) */
export const HOST_FROM_CONTAINER = 'host.docker.internal'

export class PaysandboxContainer extends GenericContainer {
  /** files copied in, by the list variable that names them (SANDBOX_SCENARIOS, SANDBOX_LOAD) */
  readonly #files = new Map<string, string[]>()

  constructor(image: string = PAYSANDBOX_IMAGE) {
    super(image)
    this.withExposedPorts(HTTP_PORT).withWaitStrategy(Wait.forHttp('/_sandbox/health', HTTP_PORT)).withStartupTimeout(30_000)
  }

  /** copies a file into the container and adds it to the list variable `env` */
  #withFile(env: string, file: string): this {
    const list = this.#files.get(env) ?? []
    const target = `${FILES_DIR}/${env.toLowerCase()}-${list.length}-${basename(file)}`
    this.#files.set(env, [...list, target])
    return this.withCopyFilesToContainer([{ source: resolve(file), target, mode: 0o644 }])
  }

  /** a scenario pack (YAML or JSON) from this machine; repeatable, later wins (`--scenarios`) */
  withScenarios(file: string): this {
    return this.#withFile(OPTIONS.scenarios.env, file)
  }

  /** a snapshot file from this machine, restored under its key at start (`--load`, SANDBOX_LOAD); repeatable */
  withLoad(file: string): this {
    return this.#withFile(OPTIONS.load.env, file)
  }

  /** the merchants file on this machine that `withMerchants` copied in: the keys are read from it */
  #merchantsFile: string | undefined

  /**
   * A merchants file (YAML or JSON) from this machine (`--merchants`, SANDBOX_MERCHANTS): copied
   * in, and read here too, so the keys given back are the ones it gives the default merchant.
   */
  withMerchants(file: string): this {
    const target = `${FILES_DIR}/merchants-${basename(file)}`
    this.#merchantsFile = resolve(file)
    return this.withEnvironment({ [OPTIONS.merchants.env]: target }).withCopyFilesToContainer([{ source: resolve(file), target, mode: 0o644 }])
  }

  /** the default merchant's secret key (`--secret-key`) */
  withSecretKey(key: string): this {
    return this.withEnvironment({ [OPTIONS.secretKey.env]: key })
  }

  /** the control token, with which this machine's calls to the control API and the dashboard are let in (`--control-token`) */
  withControlToken(token: string): this {
    return this.withEnvironment({ [OPTIONS.controlToken.env]: token })
  }

  /**
   * The default webhook URL (`--webhook-url`). A receiver on this machine is reached as
   * `host.docker.internal` (`http://host.docker.internal:PORT/...`), which this maps to the host's
   * gateway.
   */
  withWebhookUrl(url: string): this {
    return this.withEnvironment({ [OPTIONS.webhookUrl.env]: url }).withExtraHosts([{ host: HOST_FROM_CONTAINER, ipAddress: 'host-gateway' }])
  }

  override async start(): Promise<StartedPaysandboxContainer> {
    for (const [env, targets] of this.#files) {
      const given = this.environment[env]
      this.withEnvironment({ [env]: [...(given ? [given] : []), ...targets].join(',') })
    }
    // the keys by the rule `sandbox start` and the Action use; a bad or live key, or a bad
    // merchants file, is refused here, before a container is made
    if (this.environment[OPTIONS.merchants.env] && !this.#merchantsFile) {
      throw new Error(`${OPTIONS.merchants.env} names a file in the container, which this machine cannot read for the keys: give it with withMerchants(file)`)
    }
    const keys = servedKeys(this.environment, this.#merchantsFile)
    return new StartedPaysandboxContainer(await super.start(), keys, this.environment[OPTIONS.controlToken.env])
  }
}

export class StartedPaysandboxContainer extends AbstractStartedContainer {
  constructor(
    started: StartedTestContainer,
    private readonly keys: { secretKey: string; publicKey: string; encryptionKey: string },
    private readonly controlToken: string | undefined,
  ) {
    super(started)
  }

  /** the sandbox's base URL from this machine, `http://HOST:PORT` */
  getUrl(): string {
    return `http://${this.getHost()}:${this.getMappedPort(HTTP_PORT)}`
  }

  getSecretKey(): string {
    return this.keys.secretKey
  }

  getPublicKey(): string {
    return this.keys.publicKey
  }

  getEncryptionKey(): string {
    return this.keys.encryptionKey
  }

  /** the headers a control call from this machine carries: the control token's, when one was given */
  getControlHeaders(): Record<string, string> {
    return this.controlToken ? { 'x-sandbox-control-token': this.controlToken } : {}
  }
}
