/**
 * Animal Store core: codecs, use cases, ports and errors. No HTTP, no database: an embedding
 * program wires its own adapters (or those of `animal-store/in-memory`) into the use cases.
 *
 * @module animal-store
 */
export {
  ID_MAX_DIGITS,
  INT64_MAX,
  positiveInt64FromNumber,
  positiveInt64FromParam,
} from './domain/int64.js'
export type { PositiveInt64 } from './domain/int64.js'
export { PetStatus, PET_STATUSES } from './domain/pet-status.js'
export {
  PetName,
  StoredPetName,
  PET_NAME_MAX_LENGTH,
  PET_NAME_PATTERN,
  PET_NAME_RULES,
  type PetNameBrand,
} from './domain/pet-name.js'
export { NewPet, CategoryId, type CategoryIdBrand } from './domain/new-pet.js'
export { Pet, PetId, PetIdParam, PET_SCHEMA_VERSION, type PetIdBrand } from './domain/pet.js'
export {
  limitCodec,
  listPetsQueryCodec,
  LIST_LIMITS,
  LIMIT_MAX_DIGITS,
} from './domain/list-query.js'
export type { ListLimits, ListPetsQuery, ListPetsQueryDecoded } from './domain/list-query.js'
export type { InputOf, Unchecked } from './domain/input.js'
export type { StrictStruct } from './domain/strict-struct.js'
export {
  IdempotencyKey,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_KEY_PATTERN,
  type IdempotencyKeyBrand,
} from './domain/idempotency-key.js'
export { petFingerprint, sameRequest } from './domain/pet-fingerprint.js'
export { decodeWith } from './domain/decode.js'
export * from './domain/errors.js'
export type * from './ports/pet-store.js'
export type * from './ports/api-keys.js'
export type * from './ports/idempotency-store.js'
export { silentLogger, type Logger } from './ports/logger.js'
export type * from './ports/api-key-registry.js'
export { Scope, ALL_SCOPES } from './domain/scope.js'
export {
  GET_PET_DEPRECATION,
  OPERATIONS,
  type Deprecation,
  type HttpMethod,
  type Operation,
  type OperationId,
  type SpecifiedOperationId,
} from './api/operations.js'
export { readJson, readNewPetJson, readPetJson } from './json/read.js'
export { writeNewPetJson, writePetJson, type NewPetFields, type PetFields } from './json/write.js'
export { ErrorBody, ERROR_CODES, type ErrorCode } from './api/error-codes.js'
export {
  ERROR_CATALOGUE,
  errorCodesOf,
  type ErrorEntry,
  type OperationErrorCode,
} from './api/error-catalogue.js'
export { parseIsoInstant } from './domain/iso-instant.js'
export {
  createPet,
  createPetFromUnknown,
  type CreatePetDeps,
  type NewPetInput,
} from './use-cases/create-pet.js'
export {
  listPets,
  listPetsFromUnknown,
  type ListPetsDeps,
  type ListPetsInput,
  type PetPage,
} from './use-cases/list-pets.js'
export { getPet, type GetPetDeps } from './use-cases/get-pet.js'
export { authenticate, type AuthenticateDeps } from './use-cases/authenticate.js'
export { authorize } from './use-cases/authorize.js'
export {
  createPetIdempotently,
  IDEMPOTENCY_DEFAULTS,
  type CreatePetIdempotentlyDeps,
  type IdempotencyPolicy,
  type IdempotentCreate,
  type IdempotentCreateFailure,
  type IdempotentResult,
} from './use-cases/create-pet-idempotently.js'
