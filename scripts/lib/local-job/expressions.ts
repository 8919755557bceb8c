/**
 * `${{ }}` expressions, evaluated by GitHub's own evaluator
 * (`@actions/expressions`: its operators, its loose comparisons, its
 * functions: contains, startsWith, format, join, toJSON, fromJSON...), with
 * the status functions a job's steps add (success, failure, always,
 * cancelled). What it does not know (hashFiles, a context such as matrix or
 * strategy) cannot be evaluated: CannotEvaluate says so, and the caller
 * skips the step rather than guess.
 */
import { Evaluator, Lexer, Parser, data } from '@actions/expressions'
import type { Expr } from '@actions/expressions'
import type { FunctionDefinition } from '@actions/expressions/funcs/info'
import { TokenType } from '@actions/expressions/lexer'
import { truthy } from '@actions/expressions/result'

/** The contexts a local run fills (plain JSON values). */
export interface Contexts {
  github: Record<string, unknown>
  env: Record<string, string>
  vars: Record<string, string>
  secrets: Record<string, string>
  inputs: Record<string, unknown>
  needs: Record<string, { result: string; outputs: Record<string, string> }>
  steps: Record<string, { outputs: Record<string, string>; outcome: string; conclusion: string }>
  job: { status: JobStatus }
  runner: Record<string, string>
}

export type JobStatus = 'success' | 'failure'

export class CannotEvaluate extends Error {}

const STATUS_FUNCTIONS = ['success', 'failure', 'always', 'cancelled']

function statusFunctions(status: JobStatus): Map<string, FunctionDefinition> {
  const values: Record<string, boolean> = {
    success: status === 'success',
    failure: status === 'failure',
    always: true,
    // A local run is never cancelled: it stops when interrupted.
    cancelled: false
  }
  return new Map(
    STATUS_FUNCTIONS.map(name => [
      name,
      { name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(values[name]) }
    ])
  )
}

function parsed(expression: string, contexts: Contexts): { expr: Expr; usesStatus: boolean } {
  try {
    const { tokens } = new Lexer(expression).lex()
    const usesStatus = tokens.some(
      (token, i) =>
        token.type === TokenType.IDENTIFIER &&
        STATUS_FUNCTIONS.includes(token.lexeme.toLowerCase()) &&
        tokens[i + 1]?.type === TokenType.LEFT_PAREN
    )
    const functions = STATUS_FUNCTIONS.map(name => ({ name, minArgs: 0, maxArgs: 0 }))
    return { expr: new Parser(tokens, Object.keys(contexts), functions).parse(), usesStatus }
  } catch (error) {
    throw new CannotEvaluate(`${(error as Error).message} in \`${expression}\``)
  }
}

function toData(contexts: Contexts): data.Dictionary {
  return JSON.parse(JSON.stringify(contexts), data.reviver) as data.Dictionary
}

/** A value of the evaluator as plain JSON. */
function plain(value: data.ExpressionData | undefined): unknown {
  if (value === undefined) return null
  switch (value.kind) {
    case data.Kind.Null:
      return null
    case data.Kind.Boolean:
    case data.Kind.Number:
    case data.Kind.String:
      return (value as data.BooleanData | data.NumberData | data.StringData).value
    case data.Kind.Array:
      return (value as data.Array).values().map(plain)
    default:
      return Object.fromEntries((value as data.Dictionary).pairs().map(pair => [pair.key, plain(pair.value)]))
  }
}

function evaluated(expr: Expr, contexts: Contexts, status: JobStatus): data.ExpressionData {
  try {
    return new Evaluator(expr, toData(contexts), statusFunctions(status)).evaluate()
  } catch (error) {
    throw new CannotEvaluate((error as Error).message)
  }
}

/** One expression (without `${{ }}`), as a plain value. */
export function evaluate(expression: string, contexts: Contexts, status: JobStatus): unknown {
  return plain(evaluated(parsed(expression, contexts).expr, contexts, status))
}

/** Where each `${{ }}` of a text starts and ends (a `}}` inside a quoted string does not end it). */
function pieces(template: string): Array<{ text: string } | { expression: string }> {
  const out: Array<{ text: string } | { expression: string }> = []
  let at = 0
  for (;;) {
    const open = template.indexOf('${{', at)
    if (open < 0) break
    let i = open + 3
    let quoted = false
    for (; i < template.length; i++) {
      if (template[i] === "'") quoted = !quoted
      else if (!quoted && template.startsWith('}}', i)) break
    }
    if (i >= template.length) throw new CannotEvaluate(`an unclosed \${{ in ${JSON.stringify(template)}`)
    out.push({ text: template.slice(at, open) }, { expression: template.slice(open + 3, i).trim() })
    at = i + 2
  }
  out.push({ text: template.slice(at) })
  return out
}

/** A value with `${{ }}` in it, as the runner makes it: each expression's value as a string. */
export function interpolate(template: string, contexts: Contexts, status: JobStatus): string {
  return pieces(template)
    .map(piece => {
      if ('text' in piece) return piece.text
      const value = evaluated(parsed(piece.expression, contexts).expr, contexts, status)
      // The runner writes an object or an array as JSON.
      return value.kind === data.Kind.Array || value.kind === data.Kind.Dictionary
        ? JSON.stringify(plain(value))
        : value.coerceString()
    })
    .join('')
}

/**
 * Whether an `if:` holds: without success(), failure(), always() or
 * cancelled() in it, the runner reads it as `success() && (...)`; no `if:`
 * is `success()`. Wrapped in `${{ }}` or not, the same.
 */
export function condition(ifText: string | undefined, contexts: Contexts, status: JobStatus): boolean {
  const written = (ifText ?? '').trim()
  if (written === '') return status === 'success'
  const whole = /^\$\{\{([\s\S]*)\}\}$/.exec(written)
  const expression = whole && pieces(written).length === 3 ? whole[1].trim() : undefined
  // Text around a `${{ }}` makes the `if:` a string: true unless empty (GitHub reads it so too).
  if (expression === undefined && written.includes('${{')) {
    return status === 'success' && interpolate(written, contexts, status) !== ''
  }
  const { expr, usesStatus } = parsed(expression ?? written, contexts)
  if (!usesStatus && status !== 'success') return false
  return truthy(evaluated(expr, contexts, status))
}
