import { readFileSync } from 'node:fs'
import { expect } from 'chai'
import { DEFAULT_MAX_ANSWER_BYTES } from '../../adapters/http-client/index.js'
import { apiOptionsOf } from '../../apps/server/api-options.js'
import {
  HEAP_PER_PET_BYTES,
  HEAP_BASE_BYTES,
  IN_FLIGHT_DEFAULT_BYTES,
  heapShortfall,
} from '../../apps/server/heap-fit.js'
import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  INT64_MAX,
  LIST_LIMITS,
  PET_NAME_MAX_LENGTH,
} from '../../core/index.js'
import { testConfig } from '../support/app.js'
import { largestPageBytes, largestPetBytes, longestStatus } from '../support/largest-answer.js'

const n = (value: number) => value.toLocaleString('en-US')
const MB = 2 ** 20
const HEAP_RESERVE_BYTES = HEAP_BASE_BYTES + IN_FLIGHT_DEFAULT_BYTES
const { maxBodyBytes } = apiOptionsOf(testConfig())
const { min, max, default: pageDefault } = LIST_LIMITS
const name = PET_NAME_MAX_LENGTH
const key = IDEMPOTENCY_KEY_MAX_LENGTH
const worstPet = `a keyed create of a ${name}-character name in 4-byte characters with a ${key}-character \`Idempotency-Key\``

/** What the docs say of a constant, or of a figure the tests compute from the constants. */
const FIGURES: Record<string, ReadonlyArray<string>> = {
  'docs/http.md': [
    `\`name\` is required: 1 to **${name} characters**`,
    `A \`name\` is 1 to ${name} characters`,
    `at most **${maxBodyBytes} bytes**`,
    `\`abc\` are the same key, 1 to ${key} characters.`,
    `takes \`limit\` (${min} to ${max}, default ${pageDefault},`,
  ],
  'docs/client.md': [
    `(\`limit\` ${min} to ${max}, default ${pageDefault},`,
    `${DEFAULT_MAX_ANSWER_BYTES / 1024} KiB (${n(DEFAULT_MAX_ANSWER_BYTES)} bytes, \`DEFAULT_MAX_ANSWER_BYTES\`)`,
    `a page of ${max} pets, each at most ${largestPetBytes} bytes of JSON (both ids of ${String(INT64_MAX).length} digits, a name of ${name} characters of 4 bytes each in UTF-8, \`"${longestStatus}"\`): ${n(largestPageBytes)} bytes`,
    `with pages of more than ${max} pets.`,
  ],
  'docs/configuration.md': [
    `**${n(HEAP_PER_PET_BYTES)} bytes of heap** (${worstPet}), plus **${HEAP_RESERVE_BYTES / MB} MB**`,
  ],
  'docs/operations.md': [
    `a reserve of ${HEAP_RESERVE_BYTES / MB} MB for everything else`,
    `**${n(HEAP_PER_PET_BYTES)} bytes** (${worstPet};`,
    heapShortfall(150_000, 152 * MB) ?? 'a MAX_PETS that does not fit',
    `The body is at most ${maxBodyBytes} bytes`,
  ],
  'docs/embedding.md': [
    `| \`maxBodyBytes\` | \`${maxBodyBytes}\` |`,
    `page sizes of a listing: ${min}, ${max}, ${pageDefault} |`,
  ],
}

const words = (text: string) => text.replace(/\s+/g, ' ')

describe("the docs' figures", () => {
  for (const [file, figures] of Object.entries(FIGURES)) {
    it(`${file} gives the figures of the constants`, () => {
      const doc = words(readFileSync(file, 'utf8'))
      for (const figure of figures) expect(doc, file).to.include(words(figure))
    })
  }
})
