/**
 * The inputs and outputs tables, generated from action.yml (compact in the
 * README, in full in docs/reference/inputs.md and outputs.md), the checks file's JSON Schema,
 * generated from the zod schema, and the table of the actions the workflows
 * pin (docs/releasing.md), generated from .github/workflows/.
 *   npm run docs          rewrite them
 *   npm run docs -- --check   exit 1 if they are out of date
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as prettier from 'prettier'
import { parse } from 'yaml'
import { APPLIES_TO } from '../src/inputs/warnings.js'
import { SCHEMA_PATH, schemaText } from './lib/checks-file-schema.js'

const ROOT = fileURLToPath(new URL('../', import.meta.url))

interface ActionYml {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>
  outputs: Record<string, { description: string }>
}

const esc = (s: string) => s.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')

export function tables(actionYml: string): { inputs: string; outputs: string } {
  const action = parse(actionYml) as ActionYml
  const inputs = [
    '| Input | Required | Default | Description |',
    '| --- | --- | --- | --- |',
    ...Object.entries(action.inputs).map(
      ([name, i]) =>
        `| \`${name}\` | ${i.required ? 'yes' : 'no'} | ${i.default !== undefined ? `\`${i.default}\`` : ''} | ${esc(i.description)} |`
    )
  ].join('\n')
  const outputs = [
    '| Output | Description |',
    '| --- | --- |',
    ...Object.entries(action.outputs).map(([name, o]) => `| \`${name}\` | ${esc(o.description)} |`)
  ].join('\n')
  return { inputs, outputs }
}

/** The README's compact tables: each input with its default and the operations that read it; the outputs by name. */
export function compactTables(actionYml: string): { inputs: string; outputs: string } {
  const action = parse(actionYml) as ActionYml
  const readBy = APPLIES_TO as Record<string, string[] | undefined>
  // Lists, not a table (a table is padded to its widest cell), one per set of operations that read them.
  const groups = new Map<string, string[]>()
  for (const [name, i] of Object.entries(action.inputs)) {
    const notes = [i.required ? 'required' : '', i.default !== undefined ? `default \`${i.default}\`` : ''].filter(
      Boolean
    )
    const key = readBy[name] ? (readBy[name] ?? []).join(', ') : 'every operation'
    groups.set(key, [...(groups.get(key) ?? []), `\`${name}\`${notes.length ? ` (${notes.join('; ')})` : ''}`])
  }
  const inputs = [...groups].map(([key, names]) => `- ${key}: ${names.join(', ')}`).join('\n')
  const outputs = `Outputs: ${Object.keys(action.outputs)
    .map(name => `\`${name}\``)
    .join(', ')}.`
  return { inputs: `Inputs, by the operations that read them:\n\n${inputs}`, outputs }
}

/** `text` with each marked block (`<!-- key:start -->` ... `<!-- key:end -->`) replaced. */
function fill(text: string, blocks: Record<string, string>, file: string): string {
  let out = text
  for (const [key, table] of Object.entries(blocks)) {
    const re = new RegExp(`(<!-- ${key}:start -->)[\\s\\S]*?(<!-- ${key}:end -->)`)
    if (!re.test(out)) throw new Error(`${file} has no <!-- ${key}:start --> ... <!-- ${key}:end --> markers`)
    out = out.replace(re, (_all, start: string, end: string) => `${start}\n${table}\n${end}`)
  }
  return out
}

export function render(readme: string, actionYml: string): string {
  return fill(readme, compactTables(actionYml), 'README.md')
}

async function formatted(file: string, text: string): Promise<string> {
  const options = (await prettier.resolveConfig(`${ROOT}${file}`)) ?? {}
  return prettier.format(text, { ...options, parser: 'markdown' })
}

/** The README with fresh compact tables, formatted as Prettier (the project's formatter) would. */
export async function renderFormatted(readme: string, actionYml: string): Promise<string> {
  return formatted('README.md', render(readme, actionYml))
}

/** docs/reference/inputs.md or outputs.md (`which`) with its full table from action.yml. */
export async function renderReference(
  which: 'inputs' | 'outputs',
  reference: string,
  actionYml: string
): Promise<string> {
  const file = `docs/reference/${which}.md`
  return formatted(file, fill(reference, { [which]: tables(actionYml)[which] }, file))
}

export interface Pin {
  action: string
  version: string
  sha: string
  /** The workflow files that use it. */
  files: string[]
}

/** Every action the workflows pin by commit SHA (`owner/repo@<sha> # vX.Y.Z`; a sub-action counts as its repository). */
export function pinsOf(workflows: Array<{ file: string; text: string }>): Pin[] {
  const pins = new Map<string, Pin>()
  for (const { file, text } of workflows) {
    for (const m of text.matchAll(/uses:\s*([\w.-]+\/[\w.-]+)(?:\/[\w./-]+)?@([0-9a-f]{40})\s*#\s*(v\S+)/g)) {
      const [, action, sha, version] = m
      const pin = pins.get(`${action}@${sha}`) ?? { action, version, sha, files: [] }
      if (!pin.files.includes(file)) pin.files.push(file)
      pins.set(`${action}@${sha}`, pin)
    }
  }
  return [...pins.values()].sort((a, b) => a.action.localeCompare(b.action) || a.version.localeCompare(b.version))
}

/** The project's workflows, as pinsOf reads them. */
export function projectWorkflows(root = ROOT): Array<{ file: string; text: string }> {
  const dir = `${root}.github/workflows/`
  return readdirSync(dir)
    .filter(f => /\.ya?ml$/.test(f))
    .sort()
    .map(f => ({ file: f, text: readFileSync(`${dir}${f}`, 'utf8') }))
}

/** docs/releasing.md with a fresh table of the pinned actions. */
export async function renderReleasing(doc: string, workflows = projectWorkflows()): Promise<string> {
  const table = [
    '| Action | Version | Commit | Used in |',
    '| --- | --- | --- | --- |',
    ...pinsOf(workflows).map(p => `| \`${p.action}\` | ${p.version} | \`${p.sha}\` | ${p.files.join(', ')} |`)
  ].join('\n')
  return formatted('docs/releasing.md', fill(doc, { pins: table }, 'docs/releasing.md'))
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const actionYml = readFileSync(`${ROOT}action.yml`, 'utf8')
  const files: Array<[string, string]> = [
    ['README.md', await renderFormatted(readFileSync(`${ROOT}README.md`, 'utf8'), actionYml)],
    ...(await Promise.all(
      (['inputs', 'outputs'] as const).map(async which => {
        const file = `docs/reference/${which}.md`
        return [file, await renderReference(which, readFileSync(`${ROOT}${file}`, 'utf8'), actionYml)] as [
          string,
          string
        ]
      })
    )),
    [SCHEMA_PATH, await schemaText(ROOT)],
    ['docs/releasing.md', await renderReleasing(readFileSync(`${ROOT}docs/releasing.md`, 'utf8'))]
  ]
  if (process.argv.includes('--check')) {
    const stale = files.filter(
      ([file, text]) => !existsSync(`${ROOT}${file}`) || readFileSync(`${ROOT}${file}`, 'utf8') !== text
    )
    for (const [file] of stale) console.error(`${file} is out of date: run npm run docs`)
    if (stale.length > 0) process.exit(1)
    console.log('README.md, docs/reference/, the checks file schema and the pins in docs/releasing.md are up to date')
  } else {
    for (const [file, text] of files) writeFileSync(`${ROOT}${file}`, text)
    console.log(
      'README.md and docs/reference/ tables written from action.yml; the checks file schema from zod; the pins in docs/releasing.md from the workflows'
    )
  }
}
