import * as t from 'io-ts'

/** What an API key may do: read the catalogue, or add to it. */
export const Scope = t.keyof({ 'pets:read': null, 'pets:write': null })
export type Scope = t.TypeOf<typeof Scope>

/** Every {@link Scope}. */
export const ALL_SCOPES: ReadonlyArray<Scope> = Object.keys(Scope.keys) as Scope[]
