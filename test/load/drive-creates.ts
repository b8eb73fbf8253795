import { Agent, request } from 'node:http'
import { TEST_KEY } from '../support/app.js'

/** One answer as the load saw it: status 0 means no answer (a network error). */
export type CreateAnswer = {
  readonly instance: number
  readonly name: string
  readonly status: number
  readonly ms: number
  /** The id of a 201, exactly as written in the body. */
  readonly id?: bigint
}

const post = (agent: Agent, port: number, body: string) =>
  new Promise<{ status: number; text: string }>((resolve) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/pets',
        headers: {
          Authorization: `Bearer ${TEST_KEY}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
        res.on('error', () => resolve({ status: 0, text }))
      },
    )
    req.on('error', () => resolve({ status: 0, text: '' }))
    req.end(body)
  })

/**
 * `concurrency` closed-loop clients, client i always on instance i mod N through a keep-alive
 * agent, each sending its next create as soon as the last is answered, until `seconds` are
 * over. Every name is unique (`prefix client-seq`), so the database can be matched to answers.
 */
export const driveCreates = async (options: {
  readonly ports: ReadonlyArray<number>
  readonly concurrency: number
  readonly seconds: number
  readonly prefix: string
}): Promise<CreateAnswer[]> => {
  const agents = options.ports.map(() => new Agent({ keepAlive: true, maxSockets: Infinity }))
  const answers: CreateAnswer[] = []
  const stopAt = performance.now() + options.seconds * 1000
  const client = async (c: number) => {
    const instance = c % options.ports.length
    for (let seq = 0; performance.now() < stopAt; seq++) {
      const name = `${options.prefix} ${c}-${seq}`
      const body = `{"name":"${name}","categoryId":${9007199254740993n + BigInt(c)},"status":"available"}`
      const started = performance.now()
      const { status, text } = await post(
        agents[instance] as Agent,
        options.ports[instance] as number,
        body,
      )
      const id = status === 201 ? /"id":(\d+)/.exec(text)?.[1] : undefined
      answers.push({
        instance,
        name,
        status,
        ms: performance.now() - started,
        ...(id === undefined ? {} : { id: BigInt(id) }),
      })
    }
  }
  try {
    await Promise.all(Array.from({ length: options.concurrency }, (_, c) => client(c)))
  } finally {
    for (const agent of agents) agent.destroy()
  }
  return answers
}
