import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { loadConfig, type Config } from '../../apps/server/config.js'

const haproxy = readFileSync('deploy/haproxy.cfg', 'utf8')
const nginx = readFileSync('deploy/nginx.conf', 'utf8')
const defaults = (() => {
  const loaded = loadConfig({})
  if (loaded._tag === 'Left') throw new Error(loaded.left.join('\n'))
  return loaded.right
})()

/** `10s`, `500ms`, `2s` in milliseconds. */
const ms = (text: string | undefined): number => {
  const match = /^(\d+)(ms|s)$/.exec(text ?? '')
  if (match === null) throw new Error(`not a duration: ${text}`)
  return Number(match[1]) * (match[2] === 's' ? 1000 : 1)
}
/** The value after `directive` in `file`, where the directive starts a line or follows `check`. */
const valueOf = (file: string, directive: string): number =>
  ms(new RegExp(`(?:^|\\s)${directive} (\\S+?);?(?:\\s|$)`, 'm').exec(file)?.[1])

const service = (name: keyof Config): number => defaults[name] as number

/** The rules of docs/deployment.md's "Timeouts", against the service's defaults. */
describe('the timeouts of deploy/ fit the service', () => {
  it('cut slow headers at the same time as the service', () => {
    expect(valueOf(haproxy, 'timeout http-request')).to.equal(service('headersTimeoutMs'))
    expect(valueOf(nginx, 'client_header_timeout')).to.equal(service('headersTimeoutMs'))
  })

  it("wait for an answer longer than the service's request timeout", () => {
    expect(valueOf(haproxy, 'timeout server')).to.be.greaterThan(service('requestTimeoutMs'))
    expect(valueOf(nginx, 'proxy_read_timeout')).to.be.greaterThan(service('requestTimeoutMs'))
    expect(valueOf(nginx, 'proxy_send_timeout')).to.be.greaterThan(service('requestTimeoutMs'))
  })

  it('close idle connections to an instance before it does', () => {
    expect(valueOf(haproxy, 'pool-purge-delay')).to.be.lessThan(service('keepAliveTimeoutMs'))
    expect(valueOf(nginx, 'keepalive_timeout')).to.be.lessThan(service('keepAliveTimeoutMs'))
  })

  it('take a draining instance out before its listener closes, waiting for a store call', () => {
    const fall = Number(/ fall (\d+)/.exec(haproxy)?.[1])
    expect(valueOf(haproxy, 'inter') * fall).to.be.lessThan(service('shutdownDrainMs'))
    expect(valueOf(haproxy, 'timeout check')).to.be.at.least(service('storeTimeoutMs'))
  })
})
