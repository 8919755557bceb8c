/**
 * The README's inputs and outputs tables, generated from action.yml, and the
 * checks file's JSON Schema, generated from the zod schema.
 *   npm run docs          rewrite them
 *   npm run docs -- --check   exit 1 if they are out of date
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as prettier from 'prettier'
import { parse } from 'yaml'
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

export function render(readme: string, actionYml: string): string {
  const t = tables(actionYml)
  let out = readme
  for (const [key, table] of Object.entries(t)) {
    const re = new RegExp(`(<!-- ${key}:start -->)[\\s\\S]*?(<!-- ${key}:end -->)`)
    if (!re.test(out)) throw new Error(`README.md has no <!-- ${key}:start --> ... <!-- ${key}:end --> markers`)
    out = out.replace(re, (_all, start: string, end: string) => `${start}\n${table}\n${end}`)
  }
  return out
}

/** The README with fresh tables, formatted as Prettier (the project's formatter) would. */
export async function renderFormatted(readme: string, actionYml: string): Promise<string> {
  const options = (await prettier.resolveConfig(`${ROOT}README.md`)) ?? {}
  return prettier.format(render(readme, actionYml), { ...options, parser: 'markdown' })
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const readmePath = `${ROOT}README.md`
  const readme = readFileSync(readmePath, 'utf8')
  const next = await renderFormatted(readme, readFileSync(`${ROOT}action.yml`, 'utf8'))
  const schemaPath = `${ROOT}${SCHEMA_PATH}`
  const schema = await schemaText(ROOT)
  if (process.argv.includes('--check')) {
    let stale = false
    if (next !== readme) {
      console.error('README.md inputs/outputs tables are out of date: run npm run docs')
      stale = true
    }
    if (!existsSync(schemaPath) || readFileSync(schemaPath, 'utf8') !== schema) {
      console.error(`${SCHEMA_PATH} is out of date: run npm run docs`)
      stale = true
    }
    if (stale) process.exit(1)
    console.log(`README.md tables match action.yml; ${SCHEMA_PATH} matches the zod schema`)
  } else {
    writeFileSync(readmePath, next)
    writeFileSync(schemaPath, schema)
    console.log(`README.md tables written from action.yml; ${SCHEMA_PATH} from the zod schema`)
  }
}
