import { dirname, join } from 'node:path'

/** What `sandbox ca` prints (docs/behaviour.md#tls-and-local-ca): the CA's path and how each client trusts it. */
export function trustText(certPath: string, created: boolean): string {
  const q = (p: string) => (/^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`)
  const ca = q(certPath)
  const store = q(join(dirname(certPath), 'truststore.p12'))
  return `CA certificate: ${certPath}${created ? ' (created now)' : ''}

Trust it (the sandbox never weakens verification: a client that does not trust it fails the handshake):
  Node                   NODE_EXTRA_CA_CERTS=${ca}
  Python requests        REQUESTS_CA_BUNDLE=${ca}
  Python urllib, Ruby,   SSL_CERT_FILE=${ca}
    Go (Linux), OpenSSL
  curl                   CURL_CA_BUNDLE=${ca}   (or: curl --cacert ${ca})
  PHP                    php -d curl.cainfo=${ca} -d openssl.cafile=${ca}
  Java                   keytool -importcert -noprompt -alias paysandbox -file ${ca} -keystore ${store} -storetype PKCS12 -storepass changeit
                         java -Djavax.net.ssl.trustStore=${store} -Djavax.net.ssl.trustStorePassword=changeit ...

SSL_CERT_FILE, CURL_CA_BUNDLE and REQUESTS_CA_BUNDLE replace the system's CAs: a client that
also calls other HTTPS hosts needs a file holding both (cat /etc/ssl/certs/ca-certificates.crt ${ca}).

Then either call the sandbox's HTTPS port (sandbox start --tls), or leave the client's
https://api.korapay.com as it is and send it through the proxy (sandbox start --proxy):
  HTTPS_PROXY=http://127.0.0.1:4080 (the port printed by start)
`
}
