/** Status page operations: create, get, list. */
import { paths } from '../../api/monitoring.js'
import type { StatusPage } from '../../api/schemas.js'
import type { Mapping } from '../../values/values.js'
import { canonical, dryRunSkips, str } from '../common.js'
import type { Operation, Summary } from '../types.js'
import { OperationError } from '../types.js'

function pageSummary(title: string, pages: Array<StatusPage | Mapping>): Summary {
  return {
    title,
    lines: [],
    tables:
      pages.length > 0
        ? [
            {
              head: ['Status page', 'ID', 'Other fields'],
              rows: pages.map(({ id, name, ...rest }) => [name, id, canonical(rest)])
            }
          ]
        : []
  }
}

export const createStatusPage: Operation = async ctx => {
  const body = ctx.config.statusPage
  const before = await ctx.api.listStatusPages()
  if (dryRunSkips(ctx, 'POST', paths.statusPages, body)) {
    return {
      outputs: { result: body, changed: true },
      summary: pageSummary('Status page would be created (dry run)', [body])
    }
  }
  const { item } = await ctx.api.createStatusPage(body, before)
  ctx.log.info(`Created status page ${item.id} (${str(item.name)})`)
  return {
    outputs: { 'status-page-id': item.id, result: item, changed: true },
    summary: pageSummary('Status page created', [item])
  }
}

export const getStatusPage: Operation = async ctx => {
  const id = ctx.config.statusPageId
  let page: StatusPage | null | undefined
  if (id) {
    page = await ctx.api.getStatusPage(id)
    if (!page) throw new OperationError(`status page ${id} not found (GET ${paths.statusPage(id)} answered 404)`)
  } else {
    const name = str(ctx.config.statusPage.name)
    const all = await ctx.api.listStatusPages()
    const matches = all.filter(p => p.name === name)
    if (matches.length > 1) {
      throw new OperationError(
        `${matches.length} status pages are named ${JSON.stringify(name)} (${matches.map(p => p.id).join(', ')}); use status-page-id`
      )
    }
    page = matches[0]
    if (!page) throw new OperationError(`no status page named ${JSON.stringify(name)} (looked through ${all.length})`)
  }
  return { outputs: { 'status-page-id': page.id, result: page }, summary: pageSummary('Status page', [page]) }
}

export const listStatusPages: Operation = async ctx => {
  const all = await ctx.api.listStatusPages()
  return {
    outputs: { 'status-page-id': all[0]?.id ?? '', result: all, count: all.length },
    summary: pageSummary(`Status pages (${all.length})`, all)
  }
}
