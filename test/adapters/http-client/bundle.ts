import { build, type Metafile } from 'esbuild'

/** The published client (dist/, built by `npm run build`) as one browser module, with its graph. */
export const bundleClient = async (
  entry = 'dist/adapters/http-client/index.js',
  platform: 'browser' | 'node' = 'browser',
): Promise<{ readonly code: string; readonly metafile: Metafile }> => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform,
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  return { code: result.outputFiles[0]?.text ?? '', metafile: result.metafile }
}

/** Every import in the graph that names a Node built-in (`node:…`) or was left outside it. */
export const nodeImportsOf = (metafile: Metafile): string[] =>
  Object.entries(metafile.inputs).flatMap(([file, input]) =>
    input.imports
      .filter((i) => i.path.startsWith('node:') || i.external === true)
      .map((i) => `${file} -> ${i.path}`),
  )
