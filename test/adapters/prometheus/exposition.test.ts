import { expect } from 'chai'
import {
  histogramCell,
  labelText,
  observe,
  renderCounter,
  renderHistogram,
} from '../../../adapters/prometheus/exposition.js'

describe('Prometheus text exposition', () => {
  it('writes cumulative buckets, +Inf, sum and count', () => {
    const bounds = [0.1, 1]
    const cell = histogramCell(labelText({ route: '/v1/pets' }), bounds)
    for (const v of [0.05, 0.1, 0.5, 7]) observe(cell, bounds, v)
    expect(renderHistogram('h', 'Help.', bounds, [cell])).to.equal(
      [
        '# HELP h Help.',
        '# TYPE h histogram',
        'h_bucket{route="/v1/pets",le="0.1"} 2',
        'h_bucket{route="/v1/pets",le="1"} 3',
        'h_bucket{route="/v1/pets",le="+Inf"} 4',
        'h_sum{route="/v1/pets"} 7.65',
        'h_count{route="/v1/pets"} 4',
        '',
      ].join('\n'),
    )
  })

  it('escapes label values and writes counters without labels bare', () => {
    expect(labelText({ a: 'x"y\\z\nw' })).to.equal('a="x\\"y\\\\z\\nw"')
    expect(renderCounter('c_total', 'Help.', [{ labels: '', value: 3 }])).to.equal(
      '# HELP c_total Help.\n# TYPE c_total counter\nc_total 3\n',
    )
  })
})
