import {
  ID_MAX_DIGITS,
  LIMIT_MAX_DIGITS,
  PET_NAME_MAX_LENGTH,
  PET_NAME_PATTERN,
  PET_NAME_RULES,
  PET_STATUSES,
  NewPet,
  Pet,
  type ListLimits,
} from '../../../../core/index.js'
import { INT64_STRING_TYPE } from '../../request/int64-form.js'
import { ERROR_CODES } from '../../response/problem.js'
import type { ParameterName } from '../routes/operation-text.js'
import { inStringForm, int64Text, positiveInt64 } from './int64-fields.js'

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
    'Identifier of the category the animal belongs to.',
    ' Any JSON number with an integer value in range is accepted (`5`, `5.0`, `5e0`), converted exactly.',
  ),
  status: { $ref: '#/components/schemas/PetStatus' },
}

const objectOf = (
  keys: { required: ReadonlyArray<string>; optional: ReadonlyArray<string> },
  form: (field: object) => object = (field) => field,
) => ({
  type: 'object',
  required: [...keys.required],
  additionalProperties: false,
  properties: Object.fromEntries(
    [...keys.required, ...keys.optional].map((key) => [key, form(petFields[key as keyof Pet])]),
  ),
})

/*
 * What a pet may look like as served: the input rules apply when a pet is written, so a pet that
 * a version with other rules stored is served as stored, and a later version may add fields.
 */
const PET_DESCRIPTION = `\`status\` is present only when it was given on creation. A pet is served as it was stored: today's rules (NewPet) apply when it is created, so one stored under an earlier rule may have a name longer than ${PET_NAME_MAX_LENGTH} characters or that a rule added since refuses; a later version of the service may add fields, so read pets tolerantly.`
const storedName = {
  type: 'string',
  minLength: 1,
  description:
    "The animal's name, exactly as stored (see NewPet for the rules a new name follows).",
}
/**
 * A Pet's schema: the name as stored rather than held to today's rules, and open to fields a
 * later version adds (a client that checks answers against it must not refuse them), where a
 * request's NewPet and the Error stay closed.
 */
const asStored = ({ additionalProperties: _closed, ...schema }: ReturnType<typeof objectOf>) => ({
  ...schema,
  properties: { ...schema.properties, name: storedName },
})
const STRING_FORM_DESCRIPTION = `, in the string form (\`${INT64_STRING_TYPE}\`): every int64 field a string of its digits.`

/**
 * The schema of each body in the string form, by its own: those with int64 fields have their
 * own, and an Error, which has none, is itself (a request that asks for the form gets it).
 */
export const STRING_FORMS: Readonly<Record<string, string>> = {
  NewPet: 'NewPetInt64String',
  Pet: 'PetInt64String',
  Pets: 'PetsInt64String',
  Error: 'Error',
}

export const schemas = {
  PetStatus: {
    type: 'string',
    enum: PET_STATUSES,
    description: 'Availability status of an animal.',
  },
  NewPet: objectOf(NewPet.keys),
  Pet: { ...asStored(objectOf(Pet.keys)), description: `An animal as stored. ${PET_DESCRIPTION}` },
  Pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
  NewPetInt64String: {
    ...objectOf(NewPet.keys, inStringForm),
    description: `A NewPet${STRING_FORM_DESCRIPTION}`,
  },
  PetInt64String: {
    ...asStored(objectOf(Pet.keys, inStringForm)),
    description: `An animal as stored${STRING_FORM_DESCRIPTION} ${PET_DESCRIPTION}`,
  },
  PetsInt64String: {
    type: 'array',
    items: { $ref: '#/components/schemas/PetInt64String' },
    description: `Pets${STRING_FORM_DESCRIPTION}`,
  },
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
      schema: int64Text('The id of the last animal of the previous page.'),
    },
    petId: {
      name: 'petId',
      in: 'path',
      required: true,
      description: `The animal's identifier, digits only (leading zeros allowed, at most ${ID_MAX_DIGITS} digits).`,
      schema: int64Text("The animal's identifier."),
    },
  }) satisfies Record<ParameterName, object>
