import { expect } from 'chai'
import { bundleClient, nodeImportsOf } from './bundle.js'

/** The client runs in browsers: nothing in its module graph may need Node. */
describe('the client module graph', function () {
  this.timeout(30_000)

  it('imports no node: module, and only core and the client of this package', async () => {
    const { metafile } = await bundleClient()
    expect(nodeImportsOf(metafile)).to.deep.equal([])
    const own = Object.keys(metafile.inputs).filter((f) => f.startsWith('dist/'))
    expect(own.some((f) => f.startsWith('dist/adapters/http-client/'))).to.equal(true)
    expect(own.filter((f) => !/^dist\/(core|adapters\/http-client)\//.test(f))).to.deep.equal([])
  })

  it('would see one: the Koa adapter, bundled the same way, imports node: modules', async () => {
    const { metafile } = await bundleClient('dist/adapters/koa/index.js', 'node')
    expect(nodeImportsOf(metafile)).to.not.deep.equal([])
  })
})
