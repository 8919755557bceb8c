/**
 * `monitoring-ci --help` and `monitoring-ci <operation> --help`: the
 * operations from the registry, and an operation's flags (the inputs it reads,
 * then those every operation reads) from the table that writes action.yml's
 * reference (help-table.ts), each with its default and its variable. The
 * table is loaded only for the help: it is most of the command's code, and
 * data alone (it imports nothing), so the action's bundle stays whole.
 */
import { APPLIES_TO } from '../inputs/warnings.js'
import type { InputName } from '../inputs/table.js'
import { OPERATIONS, entryOf, isOperationName } from '../operations/registry.js'
import { envName } from './args.js'
import type { HelpRow } from './help-table.js'

const USAGE = 'Usage: monitoring-ci <operation> [--<input> <value>]... [-- <command> [args...]]'

const COMMAND = [
  '  --dotenv FILE    also write the outputs as a GitLab dotenv report (MONITORING_<OUTPUT>=value)',
  '  --summary FILE   write the Markdown summary (what the action writes to the job summary)',
  '  --debug          print the debug lines too',
  '  -h, --help       this help; monitoring-ci <operation> --help lists its flags'
]

/** One flag's lines: its name and variable, then what it is, its default or that it is required. */
function flagLines(row: HelpRow): string[] {
  const fact = row.required ? ' Required.' : row.default !== undefined ? ` Default: ${row.default}.` : ''
  return [`  --${row.name} (${envName(row.name)})`, `      ${row.description}${fact}`]
}

export async function helpText(operation?: string): Promise<string> {
  const name = operation?.trim() ?? ''
  if (!isOperationName(name)) {
    const width = Math.max(...OPERATIONS.map(op => op.length))
    return [
      USAGE,
      '',
      'Drives a website-monitoring service from any CI or a terminal: the GitHub action',
      "Website Monitoring's operations, inputs and outputs. Outputs are one JSON object on",
      'standard output; everything else goes to standard error.',
      '',
      'Operations:',
      ...OPERATIONS.map(op => `  ${op.padEnd(width)}  ${entryOf(op).summary}`),
      '',
      'Every input is a flag of the same name, or a MONITORING_ variable (--api-key: MONITORING_API_KEY);',
      'a flag wins. Exit status: 0 done, 1 failed, 2 usage error (nothing sent), 130 SIGINT, 143 SIGTERM.',
      '',
      ...COMMAND,
      ''
    ].join('\n')
  }
  const { HELP_ROWS } = await import('./help-table.js')
  const reads = (row: HelpRow) => (APPLIES_TO[row.name as InputName] ?? []).includes(name)
  const everyone = (row: HelpRow) => APPLIES_TO[row.name as InputName] === undefined && row.name !== 'operation'
  return [
    `Usage: monitoring-ci ${name} [--<input> <value>]...${name === 'pause-check' ? ' [-- <command> [args...]]' : ''}`,
    '',
    entryOf(name).summary,
    '',
    `Flags of ${name}:`,
    ...HELP_ROWS.filter(reads).flatMap(flagLines),
    '',
    'Flags of every operation:',
    ...HELP_ROWS.filter(everyone).flatMap(flagLines),
    '',
    ...COMMAND,
    ''
  ].join('\n')
}
