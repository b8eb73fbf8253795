import type { Operation } from '../../core/index.js'
import type { Answer } from './exchange.js'
import type { DeprecationNotice } from './options.js'

/**
 * Tells `hook` of the first answer of `operation` that carries a Deprecation header, and then
 * never again: a program that calls it in a loop hears of it once, not once per call.
 */
export const onceDeprecated = (
  operation: Operation,
  hook: ((notice: DeprecationNotice) => void) | undefined,
) => {
  let told = false
  return (answer: Answer): void => {
    const deprecation = answer.headers.get('deprecation')
    if (told || deprecation === null || hook === undefined) return
    told = true
    hook({
      operationId: operation.operationId,
      deprecation,
      sunset: answer.headers.get('sunset'),
      link: answer.headers.get('link'),
    })
  }
}
