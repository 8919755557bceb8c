/**
 * Part of `npm run build`: dist/licenses.txt, every third-party package the
 * bundle holds, with its version, its license (package.json) and the
 * license's text. The packages are read from the bundle's own source maps
 * (dist/*.js.map), so the list is what was bundled: nothing missing, nothing
 * that was not shipped. (ncc's `--license` left most of them out.)
 * A test keeps each license within ALLOWED_LICENSES.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../', import.meta.url))

/** Licenses a shipped package may have: permissive ones that ask for nothing but the notice. */
export const ALLOWED_LICENSES = ['MIT', 'ISC', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', '0BSD', 'BlueOak-1.0.0']

/** Whether an SPDX expression is allowed: every part of an AND, some part of an OR. */
export function licenseAllowed(expression: string | undefined): boolean {
  if (!expression) return false
  const text = expression.trim().replace(/^\((.*)\)$/, '$1')
  if (/\s+OR\s+/.test(text)) return text.split(/\s+OR\s+/).some(part => licenseAllowed(part))
  if (/\s+AND\s+/.test(text)) return text.split(/\s+AND\s+/).every(part => licenseAllowed(part))
  return ALLOWED_LICENSES.includes(text)
}

/** One bundled package, by its folder under the project (`node_modules/a/node_modules/@b/c`). */
export interface Bundled {
  name: string
  version: string
  license: string | undefined
  /** The folder it was bundled from, relative to the project. */
  dir: string
  text: string | undefined
}

/** The package folders that the source maps of `dist` name (nested node_modules kept apart). */
export function bundledDirs(dist: string): string[] {
  const dirs = new Set<string>()
  for (const map of readdirSync(dist).filter(f => f.endsWith('.js.map'))) {
    const { sources } = JSON.parse(readFileSync(join(dist, map), 'utf8')) as { sources: string[] }
    for (const source of sources) {
      const m = /^(?:\.\.?\/)*((?:node_modules\/(?:@[^/]+\/)?[^/]+\/)+)/.exec(source)
      if (m) dirs.add(m[1].replace(/\/$/, ''))
    }
  }
  return [...dirs].sort()
}

/** The "License" section of a package's README, where it has no license file; undefined without one. */
function readmeLicense(folder: string): string | undefined {
  const readme = readdirSync(folder).find(f => /^readme(\.md)?$/i.test(f))
  if (!readme) return undefined
  const section = /^#+\s*licen[cs]e\s*\n([\s\S]*?)(?=^#|(?![\s\S]))/im.exec(readFileSync(join(folder, readme), 'utf8'))
  return section?.[1].trim() ? `(from its README) ${section[1].trim()}` : undefined
}

/** Each bundled package's name, version, license and license text, read from its folder. */
export function bundledPackages(root = ROOT, dist = join(root, 'dist')): Bundled[] {
  return bundledDirs(dist)
    .map(dir => {
      const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
        name: string
        version: string
        license?: string | { type: string }
        licenses?: Array<{ type: string }>
      }
      const license =
        typeof pkg.license === 'string'
          ? pkg.license
          : (pkg.license?.type ?? pkg.licenses?.map(l => l.type).join(' OR ') ?? undefined)
      const file = readdirSync(join(root, dir)).find(f => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f))
      // A package without a license file (java-properties) states its license in its README's "License" section.
      const text = file ? readFileSync(join(root, dir, file), 'utf8').trim() : readmeLicense(join(root, dir))
      return { name: pkg.name, version: pkg.version, license, dir, text }
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version))
}

const RULE = '='.repeat(80)

/** dist/licenses.txt: a heading, then one block per package, each closed by a rule. */
export function renderLicenses(packages: Bundled[]): string {
  const blocks = packages.map(p =>
    [
      `${p.name}@${p.version}`,
      `License: ${p.license ?? '(none stated)'}`,
      '',
      p.text ?? '(no license text in the package)',
      '',
      RULE
    ].join('\n')
  )
  return (
    [
      'Third-party packages bundled in dist/, read from its source maps by npm run build (scripts/bundle-licenses.ts).',
      '',
      RULE,
      ...blocks
    ].join('\n') + '\n'
  )
}

/** The packages and licenses a licenses.txt names (its text aside). */
export function parseLicenses(text: string): Array<{ name: string; version: string; license: string }> {
  return text
    .split(`\n${RULE}\n`)
    .slice(1)
    .map(block => /^((?:@[^/\s]+\/)?[^@\s]+)@(\S+)\nLicense: (.*)$/m.exec(block))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(m => ({ name: m[1], version: m[2], license: m[3] }))
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const packages = bundledPackages()
  writeFileSync(join(ROOT, 'dist', 'licenses.txt'), renderLicenses(packages))
  const refused = packages.filter(p => !licenseAllowed(p.license))
  // Said here, enforced by __tests__/unit/licenses.test.ts.
  for (const p of refused)
    console.error(
      `warning: ${p.name}@${p.version} (${p.dir}): license ${p.license ?? 'not stated'} is not in the allow-list`
    )
  console.log(`dist/licenses.txt: ${packages.length} bundled package(s)`)
}
