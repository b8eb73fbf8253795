import type { Scope } from '../domain/scope.js'

/** The methods an operation of the interface may use. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** A deprecated operation: when it goes, and what replaces it (paths relative to the base path). */
export type Deprecation = {
  /** From this instant on the operation answers 410 Gone. */
  readonly sunsetAt: Date
  /** Default for when it counts as deprecated (RFC 9745): the publication of interface 1.0.0. */
  readonly defaultDeprecatedAt: Date
  readonly successor: { readonly path: `/${string}`; readonly usage: string }
}

/**
 * One operation of the HTTP interface as both sides of the wire know it: the service's route
 * table spreads these, and the client builds its requests from them.
 */
export type Operation = {
  readonly operationId: string
  readonly method: HttpMethod
  /** Relative to the base path, in OpenAPI's template syntax: `/pets/{petId}`. */
  readonly path: `/${string}`
  /** What the caller's API key must allow. */
  readonly scope: Scope
  /** The status of a successful answer. */
  readonly success: number
  readonly deprecation?: Deprecation
  /** Part of the wider interface with its fields unspecified: the service answers 501, the client has no call. */
  readonly unspecified?: true
}

/** `GET /pets/{petId}` is deprecated and removed on the date the interface gives. */
export const GET_PET_DEPRECATION: Deprecation = {
  sunsetAt: new Date('2030-12-05T00:00:00Z'),
  defaultDeprecatedAt: new Date('2026-01-01T00:00:00Z'),
  successor: { path: '/pets', usage: '/pets?status=...' },
}

/** Every operation of the interface, by its OpenAPI operationId. */
export const OPERATIONS = {
  listPets: {
    operationId: 'listPets',
    method: 'GET',
    path: '/pets',
    scope: 'pets:read',
    success: 200,
  },
  createPet: {
    operationId: 'createPet',
    method: 'POST',
    path: '/pets',
    scope: 'pets:write',
    success: 201,
  },
  getPet: {
    operationId: 'getPet',
    method: 'GET',
    path: '/pets/{petId}',
    scope: 'pets:read',
    success: 200,
    deprecation: GET_PET_DEPRECATION,
  },
  /** Part of the wider interface, its fields unspecified: the service answers 501. */
  listStoreOrders: {
    operationId: 'listStoreOrders',
    method: 'GET',
    path: '/store/orders',
    scope: 'pets:read',
    success: 200,
    unspecified: true,
  },
} as const satisfies Readonly<Record<string, Operation>>

/** The name of an operation of the interface: a key of {@link OPERATIONS}. */
export type OperationId = keyof typeof OPERATIONS

/** The operations whose answers are specified: the client has a call for each. */
export type SpecifiedOperationId = {
  [K in OperationId]: (typeof OPERATIONS)[K] extends { readonly unspecified: true } ? never : K
}[OperationId]
