/**
 * Whether an incident is this workflow's, read from its message.
 *
 * A title is a poor witness: it is what a service changes (titles.ts), and
 * another team may write one that equals ours once blanks, case or a cut are
 * set aside. So a title that only loosely matches ours counts for an incident
 * whose message shows it is ours: it names this workflow and this repository
 * in the words the action writes them, `workflow "<workflow>"` and
 * `in <owner>/<repository>` (the action's default messages say both), or it
 * holds this step's incident-key as `incident-key "<key>"`. A message that
 * shows neither (a custom incident-message) is sent with one line that does
 * (`withEvidence`). The forms are compared with blanks collapsed and case
 * ignored, the quotes and the ends of the repository kept, so a service that
 * folds the message as it folds titles keeps the evidence, and a coincidence
 * (another workflow, `acme/shop-eu` for `acme/shop`, the words in another
 * order) does not make it.
 */
import type { RunContext } from '../../run/run-context.js'

/** What marks this step's incidents; a part left '' cannot be shown. */
export interface Evidence {
  workflow: string
  repository: string
  key?: string
}

export const evidenceOf = (run: Pick<RunContext, 'workflow' | 'repository'>, key?: string): Evidence => ({
  workflow: run.workflow,
  repository: run.repository,
  key
})

/**
 * Text as a service's changes keep it: runs of blanks one space, the ends
 * trimmed, case folded (upper case, then lower: a letter whose capital is two
 * letters, `ß` as `SS`, folds alike whether the service upper- or lower-cased
 * it). Titles (titles.ts) and messages are compared in this form.
 */
export const folded = (text: string) => text.replace(/\s+/g, ' ').trim().toUpperCase().toLowerCase()

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** `workflow "<name>"` (the quotes end the name). */
const namesWorkflow = (text: string, workflow: string) => text.includes(folded(`workflow "${workflow}"`))

/** `in <owner>/<name>`, ended by the text's end, a blank or punctuation before one (never `-`, `.v2`, `/x`). */
const namesRepository = (text: string, repository: string) =>
  new RegExp(`(?:^|\\s)in ${escaped(folded(repository))}(?=$|[\\s,;:)]|[.!?](?:\\s|$))`).test(text)

const holdsKey = (text: string, key: string) => text.includes(folded(`incident-key "${key}"`))

/** Whether `message` shows the incident is this step's (see the file's opening comment). */
export function showsEvidence(message: unknown, evidence: Evidence): boolean {
  if (typeof message !== 'string') return false
  const text = folded(message)
  const { workflow, repository, key } = evidence
  const named =
    workflow !== '' && repository !== '' && namesWorkflow(text, workflow) && namesRepository(text, repository)
  return named || (key !== undefined && key !== '' && holdsKey(text, key))
}

/** What the evidence names, for the log: `workflow "Deploy" in acme/shop, incident-key "eu"`; '' when nothing. */
export function evidenceWords(evidence: Evidence): string {
  const { workflow, repository, key } = evidence
  const parts = [
    workflow && repository ? `workflow "${workflow}" in ${repository}` : '',
    key ? `incident-key "${key}"` : ''
  ]
  return parts.filter(Boolean).join(', ')
}

/** The line the action adds to a message that does not show the evidence; '' when there is nothing to show. */
export function evidenceLine(evidence: Evidence): string {
  const words = evidenceWords(evidence)
  if (words === '') return ''
  return `${evidence.workflow && evidence.repository ? 'Sent by' : 'Sent with'} ${words}.`
}

/** `message`, with the evidence line added when it does not show the evidence already. */
export function withEvidence(message: string, evidence: Evidence): string {
  const line = evidenceLine(evidence)
  if (line === '' || showsEvidence(message, evidence)) return message
  return message === '' ? line : `${message}\n${line}`
}
