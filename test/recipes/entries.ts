import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

/**
 * An entry a recipe adds to a record the compiler checks, found by the name of its declaration
 * rather than by the text around it: a member of an object, array or type literal (`member`), and for a
 * function, a statement before its `return` (`statement`), with the imports the entry needs.
 */
export type Entry = {
  readonly file: string
  /** The declaration that holds the record: `OPERATIONS`, `Calls`, `createCalls`. */
  readonly into: string
  readonly member: string
  readonly statement?: string
  readonly imports?: ReadonlyArray<string>
  /** The name of a member the entry takes the place of. */
  readonly replaces?: string
}

const declarationNamed = (source: ts.SourceFile, name: string): ts.Node => {
  let found: ts.Node | undefined
  const visit = (node: ts.Node): void => {
    if (found !== undefined) return
    const named =
      (ts.isVariableDeclaration(node) || ts.isTypeAliasDeclaration(node)) &&
      ts.isIdentifier(node.name) &&
      node.name.text === name
    if (named) found = node
    else ts.forEachChild(node, visit)
  }
  visit(source)
  if (found === undefined) throw new Error(`${source.fileName}: no declaration named ${name}`)
  return found
}

/** The literal a declaration's value comes to: through `as`, `satisfies`, generics, a return. */
type Literal = ts.ObjectLiteralExpression | ts.ArrayLiteralExpression | ts.TypeLiteralNode

const literalOf = (node: ts.Node): Literal => {
  if (ts.isObjectLiteralExpression(node) || ts.isArrayLiteralExpression(node)) return node
  if (ts.isTypeLiteralNode(node)) return node
  if (ts.isVariableDeclaration(node) && node.initializer) return literalOf(node.initializer)
  if (ts.isTypeAliasDeclaration(node)) return literalOf(node.type)
  if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) return literalOf(node.expression)
  if (ts.isParenthesizedExpression(node) || ts.isParenthesizedTypeNode(node))
    return literalOf(ts.isParenthesizedExpression(node) ? node.expression : node.type)
  if (ts.isTypeReferenceNode(node) && node.typeArguments?.[0])
    return literalOf(node.typeArguments[0])
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return literalOf(node.body)
  if (ts.isBlock(node)) {
    const last = node.statements.at(-1)
    if (last && ts.isReturnStatement(last) && last.expression) return literalOf(last.expression)
  }
  throw new Error(`no object or type literal at ${ts.SyntaxKind[node.kind]}`)
}

/** Adds one entry to a file of the copy `dir`; Prettier lays it out afterwards. */
export const addEntry = (dir: string, entry: Entry): void => {
  const path = join(dir, entry.file)
  const text = readFileSync(path, 'utf8')
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true)
  const declaration = declarationNamed(source, entry.into)
  const literal = literalOf(declaration)
  const members = ts.isObjectLiteralExpression(literal)
    ? literal.properties
    : ts.isArrayLiteralExpression(literal)
      ? literal.elements
      : literal.members
  const separator = ts.isTypeLiteralNode(literal) ? ';' : ','
  const nameOf = (m: ts.Node) =>
    'name' in m && m.name instanceof Object ? (m.name as ts.Node).getText(source) : undefined
  const replaced =
    entry.replaces === undefined
      ? undefined
      : (members as ReadonlyArray<ts.Node>).find((m) => nameOf(m) === entry.replaces)
  if (entry.replaces !== undefined && replaced === undefined)
    throw new Error(`${entry.file}: ${entry.into} has no member ${entry.replaces}`)
  const last = members.at(-1)
  const at = last === undefined ? literal.getStart(source) + 1 : last.getEnd()
  const tail = /^[,;]/.test(text.slice(at)) ? 1 : 0
  const edits: Array<[number, number, string]> =
    replaced === undefined
      ? [[at + tail, 0, `${tail ? '' : separator}\n${entry.member}${separator}`]]
      : [[replaced.getStart(source), replaced.getWidth(source), entry.member]]
  if (entry.statement !== undefined) {
    const ret = literal.parent
    edits.push([ret.getStart(source), 0, `${entry.statement}\n`])
  }
  const imports = (entry.imports ?? []).map((line) => `${line}\n`).join('')
  let edited = text
  for (const [position, width, insert] of edits.sort((a, b) => b[0] - a[0]))
    edited = edited.slice(0, position) + insert + edited.slice(position + width)
  writeFileSync(path, imports + edited)
}
