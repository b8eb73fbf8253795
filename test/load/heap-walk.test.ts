import { expect } from 'chai'
import { HEAP_PER_PET_BYTES, petsThatFit } from '../../apps/server/heap-fit.js'
import { tempKeyFile } from '../support/minted-keys.js'
import {
  fillWorstCase,
  startHeapService,
  stopAgent,
  walkAll,
  type HeapService,
} from './heap-walk.js'

/**
 * Reads never grow the heap: under a capped heap, the in-memory store filled at the worst case
 * to the largest MAX_PETS the heap is said to hold, then every page read with a read-only key.
 * The CI form caps the old space at 128 MB (some 18,000 pets); HEAP_WALK_MB sets another cap.
 */
describe('the heap under a read-only key paging every pet (capped heap)', function () {
  this.timeout(180_000)
  const heapMb = Number(process.env.HEAP_WALK_MB ?? 128)
  const file = tempKeyFile()
  let service: HeapService | undefined
  after(async () => {
    await service?.stop()
    stopAgent()
    file.remove()
  })

  it('holds the default MAX_PETS at the worst case, and stays flat through two walks', async () => {
    const writer = (await file.mint(['pets:write'])).key
    const reader = (await file.mint(['pets:read'])).key
    service = await startHeapService({ API_KEYS_FILE: file.path, RATE_LIMIT: 'off' }, heapMb)
    // The default is the largest number of pets the documented figure says this heap holds.
    expect(service.maxPets).to.equal(petsThatFit(service.heapLimit))
    const empty = await service.heapUsed()
    const created = await fillWorstCase(service.port, writer, Infinity)
    expect(created).to.equal(service.maxPets)
    const full = await service.heapUsed()
    // The figure holds: the pets took no more than it says.
    expect((full - empty) / created).to.be.lessThan(HEAP_PER_PET_BYTES)
    expect(await walkAll(service.port, reader)).to.equal(created)
    const afterWalk = await service.heapUsed()
    expect(await walkAll(service.port, reader)).to.equal(created)
    const afterSecondWalk = await service.heapUsed()
    expect(service.child.exitCode).to.equal(null)
    // Flat: at most the bounded cache of pets' JSON (2 MB of characters) and some change.
    const MB = 2 ** 20
    expect((afterWalk - full) / MB, 'first walk').to.be.lessThan(3)
    expect((afterSecondWalk - full) / MB, 'second walk').to.be.lessThan(3)
  })
})
