import {
  INT64_MAX,
  LIST_LIMITS,
  PET_NAME_MAX_LENGTH,
  PET_STATUSES,
  writePetJson,
  type PetFields,
} from '../../core/index.js'

/** The longest name: every character takes 4 bytes in UTF-8 (JSON escapes none of them). */
export const longestName = String.fromCodePoint(0x1f400).repeat(PET_NAME_MAX_LENGTH)
export const longestStatus = [...PET_STATUSES].sort((a, b) => b.length - a.length)[0]!

/**
 * The pet whose JSON is the longest. Every field is required here, so a field added to Pet fails
 * to compile until it is given its largest value, and the sizes below grow with it.
 */
export const largestPet: Required<PetFields> = {
  id: INT64_MAX as PetFields['id'],
  name: longestName,
  categoryId: INT64_MAX as PetFields['categoryId'],
  status: longestStatus,
}

/** The bytes of the largest pet's JSON, and of a page of the most of them with `[`, `,`, `]`. */
export const largestPetBytes = Buffer.byteLength(writePetJson(largestPet), 'utf8')
export const largestPageBytes = 2 + LIST_LIMITS.max * largestPetBytes + (LIST_LIMITS.max - 1)
