/**
 * Splits text that comes a chunk at a time into lines, each handed to `take` as it ends. A line's
 * pieces are joined once, when its newline comes: a line spread over many chunks costs its
 * length, never its length times its chunks (re-splitting what is left of it at each chunk would).
 */
export const createLineSplitter = (take: (line: string) => void) => {
  let pieces: string[] = []
  return {
    push: (chunk: string) => {
      let start = 0
      for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
        pieces.push(chunk.slice(start, end))
        take(pieces.join(''))
        pieces = []
        start = end + 1
      }
      if (start < chunk.length) pieces.push(chunk.slice(start))
    },
    /** The last line, which needs no newline. */
    end: () => take(pieces.join('')),
  }
}
