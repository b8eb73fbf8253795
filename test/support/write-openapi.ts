/** `npm run openapi:write`: writes docs/openapi.json and docs/openapi.yaml from the code. */
import { writeFileSync } from 'node:fs'
import { openApiFileTexts } from './openapi-files.js'

for (const [path, text] of Object.entries(await openApiFileTexts())) {
  writeFileSync(path, text)
  console.log(`wrote ${path}`)
}
