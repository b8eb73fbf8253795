export type StoredPet = { name: string; categoryId: number; status: string }
export declare const NAMES: string[]
export declare const STATUSES: string[]
export declare const API_KEY: string
export declare const PETS: number
export declare const LIMIT_DEFAULT: number
export declare const LIMIT_MAX: number
export declare const NAME_MAX_LENGTH: number
export declare const petNumber: (i: number) => StoredPet
export declare const makePets: (n?: number) => Array<StoredPet & { id: number }>
