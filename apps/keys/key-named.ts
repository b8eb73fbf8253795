import type { StoredKey } from '../../core/index.js'

/**
 * The key that `revoke` names: by its id, or by a label that exactly one key has. An id wins
 * (ids are unique, labels need not be); a string is the reason none is chosen.
 */
export const keyNamed = (keys: ReadonlyArray<StoredKey>, given: string): StoredKey | string => {
  const byId = keys.find((key) => key.id === given)
  if (byId !== undefined) return byId
  const labelled = keys.filter((key) => key.label === given)
  if (labelled.length === 1) return labelled[0] as StoredKey
  if (labelled.length === 0) return `no key has the id or label "${given}"`
  const ids = labelled.map((key) => key.id).join(', ')
  return `the label "${given}" names ${labelled.length} keys (${ids}): revoke one by its id`
}
