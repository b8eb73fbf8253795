/** The names of a path template's parameters: `'/pets/{petId}'` gives `'petId'`. */
export type ParamsOf<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamsOf<Rest>
  : never

/**
 * A path from an operation's template and a value for each of its parameters. Typed from the
 * template, so a parameter renamed in the operation table fails to compile here.
 */
export const pathOf = <P extends string>(
  template: P,
  params: { readonly [N in ParamsOf<P>]: string },
): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent((params as Record<string, string>)[name] ?? ''),
  )
