/**
 * How an answer is written, in one place for the app and for the server that drives it as its
 * root: the header setter and the status and body on Koa's context (set.ts), the JSON and Error
 * answers of the API's routes (responder.ts), what Koa's `respond` would send from them
 * (finish.ts), and the refusals of requests that never reach the app (refusal.ts). Import this
 * entry, not its files.
 */
export {
  answerInForm,
  everyAnswerHeaders,
  removeHeader,
  setAnswer,
  setEmptyAnswer,
  setHeader,
  setHeaders,
  setJsonAnswer,
  setLength,
} from './set.js'
export { createResponder, type Responder, type ResponderOptions } from './responder.js'
export { finishAnswer, type Payload } from './finish.js'
export { answerError, rawErrorAnswer } from './refusal.js'
