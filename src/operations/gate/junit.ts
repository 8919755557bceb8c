/**
 * The gate as a JUnit XML report (`junit-file`): one testsuite, one testcase
 * per check with the time it took, a failure (or an error) with the reason.
 * The shape the common test-report actions read.
 */
import { xmlEscaped } from '../../values/markup.js'

export interface TestCase {
  name: string
  classname: string
  /** Seconds. */
  time: number
  failure?: { type: 'timed-out' | 'budget-exhausted' | 'budget-burning' | 'error'; message: string; details?: string }
  /** Not run (why): a check the gate never polled, as it closed before any poll. */
  skipped?: string
}

export interface TestSuite {
  name: string
  /** ISO 8601 start. */
  timestamp: string
  time: number
  cases: TestCase[]
}

/** Text safe in XML 1.0: markup characters escaped, characters XML cannot hold removed. */
export function xmlText(value: string): string {
  return xmlEscaped(
    value.replace(
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      ''
    )
  )
}

const seconds = (s: number) => s.toFixed(3)

export function junitXml(suite: TestSuite): string {
  const failures = suite.cases.filter(c => c.failure && c.failure.type !== 'error').length
  const errors = suite.cases.filter(c => c.failure?.type === 'error').length
  const skipped = suite.cases.filter(c => !c.failure && c.skipped !== undefined).length
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlText(suite.name)}" tests="${suite.cases.length}" failures="${failures}" errors="${errors}" time="${seconds(suite.time)}">`,
    `  <testsuite name="${xmlText(suite.name)}" tests="${suite.cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(suite.time)}" timestamp="${xmlText(suite.timestamp)}">`
  ]
  for (const c of suite.cases) {
    const open = `    <testcase name="${xmlText(c.name)}" classname="${xmlText(c.classname)}" time="${seconds(c.time)}"`
    if (!c.failure && c.skipped !== undefined) {
      // The reason as text: the Jenkins schema the common reporters follow allows no attribute on it.
      lines.push(`${open}>`, `      <skipped>${xmlText(c.skipped)}</skipped>`, '    </testcase>')
      continue
    }
    if (!c.failure) {
      lines.push(`${open}/>`)
      continue
    }
    const tag = c.failure.type === 'error' ? 'error' : 'failure'
    lines.push(
      `${open}>`,
      `      <${tag} type="${c.failure.type}" message="${xmlText(c.failure.message)}">${xmlText(c.failure.details ?? c.failure.message)}</${tag}>`,
      '    </testcase>'
    )
  }
  lines.push('  </testsuite>', '</testsuites>', '')
  return lines.join('\n')
}
