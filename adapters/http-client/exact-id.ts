/**
 * Throws a RangeError when an id is a number past 2^53-1: a JavaScript caller (no types to stop
 * it) may pass one, and it has already been rounded (`9007199254740993` is 9007199254740992), so
 * sending its digits would create, read or page from another id than the one meant. A bigint, or
 * a number up to 2^53-1, is exact.
 */
export const checkExactId = (name: string, id: unknown): void => {
  if (typeof id === 'number' && Number.isInteger(id) && !Number.isSafeInteger(id))
    throw new RangeError(
      `${name} must be given exactly: ${id} is a number above 2^53-1 (Number.MAX_SAFE_INTEGER) and may already be rounded, so pass a bigint (9007199254740993n)`,
    )
}
