import type { IncomingMessage, ServerResponse } from 'node:http'

/*
 * With a 'checkContinue' listener, Node no longer answers `Expect: 100-continue` by itself. The
 * server marks such requests here, and the body reader sends `100 Continue` only once the key,
 * the media type and the declared size have been accepted: a refused client never sends its body.
 */
const pending = new WeakMap<IncomingMessage, ServerResponse>()

export const awaitContinue = (req: IncomingMessage, res: ServerResponse): void => {
  pending.set(req, res)
}

/** Invites the body, if the client is waiting for that invitation; once at most. */
export const inviteBody = (req: IncomingMessage): void => {
  const res = pending.get(req)
  if (res === undefined) return
  pending.delete(req)
  if (!res.headersSent) res.writeContinue()
}
