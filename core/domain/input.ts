import type * as t from 'io-ts'

/**
 * A checked value as a caller gives it before the check: a branded string as a string, a branded
 * int64 as a bigint or a number. The compiler checks names and kinds; the use case still checks
 * every value at run time.
 */
export type Unchecked<A> =
  A extends t.Brand<unknown>
    ? A extends bigint
      ? bigint | number
      : A extends string
        ? string
        : A
    : A

/** The input of a use case: the fields of what it decodes, each {@link Unchecked}. */
export type InputOf<A> = { readonly [K in keyof A]: Unchecked<A[K]> }
