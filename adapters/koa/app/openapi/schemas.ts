import {
  ID_MAX_DIGITS,
  INT64_MAX,
  LIMIT_MAX_DIGITS,
  PET_NAME_MAX_LENGTH,
  PET_NAME_PATTERN,
  PET_NAME_RULES,
  PET_STATUSES,
  NewPet,
  Pet,
  type ListLimits,
} from '../../../../core/index.js'
import { ERROR_CODES } from '../../response/problem.js'
import type { ParameterName } from '../routes/operation-text.js'

/** int64 bounds are bigints so that the document states 9223372036854775807 exactly. */
const positiveInt64 = (description: string) => ({
  type: 'integer',
  format: 'int64',
  minimum: 1n,
  maximum: INT64_MAX,
  description,
})

/**
 * The JSON Schema of each field of a pet, typed over every key of Pet: a field added to the
 * codecs fails to compile here until it is described. NewPet and Pet are both built from it.
 */
const petFields: { readonly [K in keyof Pet]-?: object } = {
  id: positiveInt64('Unique identifier assigned by the service on creation.'),
  name: {
    type: 'string',
    minLength: 1,
    maxLength: PET_NAME_MAX_LENGTH,
    pattern: PET_NAME_PATTERN,
    description: `The animal's name: 1 to ${PET_NAME_MAX_LENGTH} characters (code points). It ${PET_NAME_RULES.blank}; it ${PET_NAME_RULES.control}; it ${PET_NAME_RULES.bidi}. A name that breaks a rule is refused with a 400 that names the rule. Stored exactly as sent.`,
  },
  categoryId: positiveInt64(
    'Identifier of the category the animal belongs to. Any JSON number with an integer value in range is accepted (`5`, `5.0`, `5e0`), converted exactly.',
  ),
  status: { $ref: '#/components/schemas/PetStatus' },
}

const objectOf = (keys: { required: ReadonlyArray<string>; optional: ReadonlyArray<string> }) => ({
  type: 'object',
  required: [...keys.required],
  additionalProperties: false,
  properties: Object.fromEntries(
    [...keys.required, ...keys.optional].map((key) => [key, petFields[key as keyof Pet]]),
  ),
})

export const schemas = {
  PetStatus: {
    type: 'string',
    enum: PET_STATUSES,
    description: 'Availability status of an animal.',
  },
  NewPet: objectOf(NewPet.keys),
  Pet: {
    ...objectOf(Pet.keys),
    description: 'An animal as stored. `status` is present only when it was given on creation.',
  },
  Pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
  Error: {
    type: 'object',
    required: ['code', 'message', 'status'],
    additionalProperties: false,
    properties: {
      code: {
        type: 'string',
        enum: Object.keys(ERROR_CODES),
        description: 'Machine-readable error code.',
      },
      message: { type: 'string', description: 'Human-readable description.' },
      status: { type: 'integer', description: 'The HTTP status code.' },
    },
  },
}

/** The `components.parameters` of the document: one for each name of ParameterName, and no other. */
export const parameterDocs = ({ min, max, default: byDefault }: ListLimits) =>
  ({
    limit: {
      name: 'limit',
      in: 'query',
      required: false,
      description: `Maximum number of animals returned: ${min} to ${max}, digits only (leading zeros allowed, at most ${LIMIT_MAX_DIGITS} digits).`,
      schema: { type: 'integer', minimum: min, maximum: max, default: byDefault },
    },
    status: {
      name: 'status',
      in: 'query',
      required: false,
      description: 'Filters by availability status.',
      schema: { $ref: '#/components/schemas/PetStatus' },
    },
    after: {
      name: 'after',
      in: 'query',
      required: false,
      description: `Paging position: only animals with a larger id are listed, digits only (leading zeros allowed, at most ${ID_MAX_DIGITS} digits). Take it from the \`Link: rel="next"\` header rather than building it.`,
      schema: positiveInt64('The id of the last animal of the previous page.'),
    },
    petId: {
      name: 'petId',
      in: 'path',
      required: true,
      description: `The animal's identifier, digits only (leading zeros allowed, at most ${ID_MAX_DIGITS} digits).`,
      schema: positiveInt64("The animal's identifier."),
    },
  }) satisfies Record<ParameterName, object>
