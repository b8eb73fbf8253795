import { readFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { TEST_KEY } from '../support/app.js'
import { startService, type ServiceProcess } from '../support/service-process.js'

/** Waits for `check` to hold, every 50 ms, at most `ms`; says what it waited for otherwise. */
export const until = async (what: string, check: () => boolean, ms = 15_000): Promise<void> => {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The request log's lines of an instance: `{status, client, route}`. */
export const requestLines = (instance: ServiceProcess) =>
  instance.stdout
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { status: number; client: string; route: string })

/** The instance is stopped (SIGTERM: its drain) and started again on its port; its exit code. */
export const restart = async (
  instances: ServiceProcess[],
  i: number,
  env: Record<string, string>,
): Promise<number | null> => {
  const old = instances[i] as ServiceProcess
  const code = await old.stop()
  instances[i] = await startService({ ...env, PORT: String(old.port) })
  return code
}

/** The TCP states of the sockets whose local end is the loopback `port`, as the kernel lists them. */
const statesOn = (port: number): string[] => {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[1] === local)
    .map((fields) => fields[3] as string)
}

/** Connections established to a loopback `port` now, as the kernel counts them (/proc/net/tcp). */
export const establishedTo = (port: number): number =>
  statesOn(port).filter((state) => state === '01').length

/**
 * Connections a server listening on a loopback `port` still holds (any state but listening and
 * TIME_WAIT): zero once it has let go of every client that closed.
 */
export const heldBy = (port: number): number =>
  statesOn(port).filter((state) => state !== '0A' && state !== '06').length

/** A connection from `localAddress` that sent a POST's headers and holds back its body. */
export const stalledPost = (port: number, localAddress: string): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => {
      socket.write(
        `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 64\r\n\r\n{`,
      )
      resolve(socket)
    })
    socket.on('error', reject)
  })
