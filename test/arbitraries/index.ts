/** Kept for imports written before the kit moved: the one source is adapters/testing/. */
export * from '../../adapters/testing/arbitraries.js'
