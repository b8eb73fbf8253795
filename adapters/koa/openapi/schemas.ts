import {
  INT64_MAX,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MAX_DIGITS,
  LIMIT_MIN,
  PET_NAME_MAX_LENGTH,
  PET_NAME_PATTERN,
  PET_STATUSES,
} from '../../../core/index.js'
import { ERROR_CODES } from '../problem.js'

/** int64 bounds are bigints so that the document states 9223372036854775807 exactly. */
const positiveInt64 = (description: string) => ({
  type: 'integer',
  format: 'int64',
  minimum: 1n,
  maximum: INT64_MAX,
  description,
})

export const schemas = {
  PetStatus: {
    type: 'string',
    enum: PET_STATUSES,
    description: 'Availability status of an animal.',
  },
  NewPet: {
    type: 'object',
    required: ['name', 'categoryId'],
    additionalProperties: false,
    properties: {
      name: {
        type: 'string',
        minLength: 1,
        maxLength: PET_NAME_MAX_LENGTH,
        pattern: PET_NAME_PATTERN,
        description: `The animal's name: 1 to ${PET_NAME_MAX_LENGTH} characters (code points), not blank, no control characters. Stored exactly as sent.`,
      },
      categoryId: positiveInt64('Identifier of the category the animal belongs to.'),
      status: { $ref: '#/components/schemas/PetStatus' },
    },
  },
  Pet: {
    type: 'object',
    required: ['id', 'name', 'categoryId'],
    additionalProperties: false,
    properties: {
      id: positiveInt64('Unique identifier assigned by the service on creation.'),
      name: { $ref: '#/components/schemas/NewPet/properties/name' },
      categoryId: { $ref: '#/components/schemas/NewPet/properties/categoryId' },
      status: { $ref: '#/components/schemas/PetStatus' },
    },
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

export const parameters = {
  limit: {
    name: 'limit',
    in: 'query',
    required: false,
    description: `Maximum number of animals returned: ${LIMIT_MIN} to ${LIMIT_MAX}, digits only (leading zeros allowed, at most ${LIMIT_MAX_DIGITS} digits).`,
    schema: { type: 'integer', minimum: LIMIT_MIN, maximum: LIMIT_MAX, default: LIMIT_DEFAULT },
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
    description:
      'Paging position: only animals with a larger id are listed. Take it from the `Link: rel="next"` header rather than building it.',
    schema: positiveInt64('The id of the last animal of the previous page.'),
  },
  petId: {
    name: 'petId',
    in: 'path',
    required: true,
    description: "The animal's identifier, digits only.",
    schema: positiveInt64("The animal's identifier."),
  },
}
