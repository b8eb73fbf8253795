/**
 * Before any figure is taken, each implementation answers the same requests on an empty store
 * and its answers are compared with the service's: a peer that skipped a rule would be faster
 * for the wrong reason. Unless `strict`, error messages are not compared (Ajv words its own) and
 * `application/json; charset=utf-8` (which Fastify always writes) counts as `application/json`.
 */
type Case = {
  readonly method: string
  readonly path: string
  readonly body?: string
  readonly type?: string
  readonly auth?: string | null
}

const PET = '{"name":"Rex","categoryId":9223372036854775807,"status":"available"}'
const CASES: ReadonlyArray<Case> = [
  { method: 'GET', path: '/v1/pets', auth: null },
  { method: 'GET', path: '/v1/pets/1', auth: 'Bearer wrong-key' },
  { method: 'GET', path: '/v1/pets', auth: 'Basic abc' },
  { method: 'POST', path: '/v1/pets', body: PET },
  { method: 'POST', path: '/v1/pets', body: '{"name":"Tom","categoryId":2}' },
  { method: 'POST', path: '/v1/pets', body: '{"name":"Kit","categoryId":3,"status":"sold"}' },
  { method: 'POST', path: '/v1/pets', body: '{"name":"Ann","categoryId":4,"status":"available"}' },
  { method: 'POST', path: '/v1/pets', body: '{"id":9,"name":"Rex","categoryId":1}' },
  { method: 'POST', path: '/v1/pets', body: '{"name":"Rex","categoryId":1.0}' },
  { method: 'POST', path: '/v1/pets', body: '{"name":"Rex","categoryId":9223372036854775808}' },
  { method: 'POST', path: '/v1/pets', body: '{"name":"Rex","categoryId":"5"}' },
  { method: 'POST', path: '/v1/pets', body: '{"name":" ","categoryId":5}' },
  { method: 'POST', path: '/v1/pets', body: `{"name":"${'x'.repeat(201)}","categoryId":5}` },
  { method: 'POST', path: '/v1/pets', body: '{"name":"\\ud800","categoryId":5}' },
  { method: 'POST', path: '/v1/pets', body: '{"name":"Rex","name":"Tom","categoryId":5}' },
  { method: 'POST', path: '/v1/pets', body: '{"name":' },
  { method: 'POST', path: '/v1/pets', body: '' },
  { method: 'POST', path: '/v1/pets', body: PET, type: 'text/plain' },
  { method: 'POST', path: '/v1/pets', body: PET, type: 'application/json; charset=latin1' },
  { method: 'POST', path: '/v1/pets', body: PET, type: 'application/json; charset=UTF-8' },
  { method: 'POST', path: '/v1/pets', body: `{"name":"${'x'.repeat(9000)}"}` },
  { method: 'GET', path: '/v1/pets?limit=2' },
  { method: 'GET', path: '/v1/pets?status=available&limit=1' },
  { method: 'GET', path: '/v1/pets?status=available&limit=1&after=1' },
  { method: 'GET', path: '/v1/pets?limit=007' },
  { method: 'GET', path: '/v1/pets?limit=0' },
  { method: 'GET', path: '/v1/pets?limit=' },
  { method: 'GET', path: '/v1/pets?limit=1&limit=2' },
  { method: 'GET', path: '/v1/pets?colour=red' },
  { method: 'GET', path: '/v1/pets?after=9223372036854775808' },
  { method: 'GET', path: '/v1/pets/1' },
  { method: 'HEAD', path: '/v1/pets/2' },
  { method: 'GET', path: '/v1/pets/99' },
  { method: 'GET', path: '/v1/pets/abc' },
  { method: 'PUT', path: '/v1/pets' },
  { method: 'DELETE', path: '/v1/pets/1' },
  { method: 'GET', path: '/v1/pets/' },
  { method: 'GET', path: '/v1/PETS' },
  { method: 'GET', path: '/v2/pets' },
  { method: 'GET', path: '/v1/store/orders' },
]

const HEADERS = [
  'content-type',
  'location',
  'link',
  'deprecation',
  'sunset',
  'allow',
  'www-authenticate',
  'retry-after',
  'cache-control',
  'x-content-type-options',
  'x-request-id',
]

type Answer = { status: number; headers: Record<string, string | null>; body: string }

const ask = async (port: number, key: string, c: Case, i: number): Promise<Answer> => {
  const auth = c.auth === undefined ? `Bearer ${key}` : c.auth
  const response = await fetch(`http://127.0.0.1:${port}${c.path}`, {
    method: c.method,
    headers: {
      'X-Request-Id': `check-${i}`,
      ...(auth === null ? {} : { Authorization: auth }),
      ...(c.body === undefined ? {} : { 'Content-Type': c.type ?? 'application/json' }),
    },
    ...(c.body === undefined ? {} : { body: c.body }),
  })
  const headers = Object.fromEntries(HEADERS.map((h) => [h, response.headers.get(h)]))
  return { status: response.status, headers, body: await response.text() }
}

const comparableBody = (body: string, strict: boolean): string => {
  if (strict || !body.startsWith('{"code"')) return body
  const { code, status } = JSON.parse(body) as { code: string; status: number }
  return JSON.stringify({ code, status })
}

/** Every difference from the reference answers, as readable lines (empty when none). */
export const differences = async (
  port: number,
  key: string,
  reference: ReadonlyArray<Answer>,
  strict: boolean,
): Promise<string[]> => {
  const header = (answer: Answer, name: string) => {
    const value = answer.headers[name] ?? null
    return strict || name !== 'content-type' ? value : value?.replace(/; charset=utf-8$/, '')
  }
  const found: string[] = []
  for (const [i, c] of CASES.entries()) {
    const want = reference[i] as Answer
    const got = await ask(port, key, c, i).catch((error: unknown): Answer => ({
      status: 0,
      headers: {},
      body: String(error),
    }))
    const diff = [
      got.status === want.status ? '' : `status ${got.status} (want ${want.status})`,
      ...HEADERS.map((h) =>
        header(got, h) === header(want, h)
          ? ''
          : `${h}: ${got.headers[h]} (want ${want.headers[h]})`,
      ),
      comparableBody(got.body, strict) === comparableBody(want.body, strict)
        ? ''
        : `body ${got.body.slice(0, 160)} (want ${want.body.slice(0, 160)})`,
    ].filter((d) => d !== '')
    if (diff.length > 0) found.push(`${c.method} ${c.path.slice(0, 60)}: ${diff.join('; ')}`)
  }
  return found
}

export const referenceAnswers = async (port: number, key: string): Promise<Answer[]> => {
  const answers: Answer[] = []
  for (const [i, c] of CASES.entries()) answers.push(await ask(port, key, c, i))
  return answers
}
