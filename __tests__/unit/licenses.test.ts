/**
 * What ships stays within an allow-list of licenses: every package the bundle
 * holds (dist/licenses.txt, which npm run build writes from the bundle's own
 * source maps) has a license in ALLOWED_LICENSES, the list names every package
 * the bundle holds, and each of them is a production dependency, so that
 * `npm audit --omit=dev` (CI) audits all that ships.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  ALLOWED_LICENSES,
  Bundled,
  bundledPackages,
  licenseAllowed,
  parseLicenses,
  renderLicenses
} from '../../scripts/bundle-licenses.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const shipped = readFileSync(`${ROOT}dist/licenses.txt`, 'utf8')
const bundled = bundledPackages()

/** The problems of a licenses.txt: a license off the list, a bundled package it does not name. */
function problems(text: string, packages: Bundled[]): string[] {
  const listed = parseLicenses(text)
  const out = listed
    .filter(p => !licenseAllowed(p.license))
    .map(p => `${p.name}@${p.version}: ${p.license} is not an allowed license`)
  const names = new Set(listed.map(p => `${p.name}@${p.version}`))
  for (const p of packages) {
    if (!names.has(`${p.name}@${p.version}`)) out.push(`${p.name}@${p.version} is bundled but not listed`)
  }
  return out
}

describe('the licenses of what ships', () => {
  it('refuse known-bad controls first: a copyleft license, none at all, a package left out', () => {
    expect(licenseAllowed('GPL-3.0-only')).toBe(false)
    expect(licenseAllowed('MIT AND GPL-3.0-only')).toBe(false)
    expect(licenseAllowed(undefined)).toBe(false)
    expect(licenseAllowed('(MIT OR GPL-3.0-only)')).toBe(true)
    const fake: Bundled[] = [
      { name: 'ok', version: '1.0.0', license: 'MIT', dir: 'node_modules/ok', text: 'MIT License' },
      { name: '@x/copyleft', version: '2.0.0', license: 'GPL-3.0-only', dir: 'node_modules/@x/copyleft', text: 'GPL' },
      { name: 'silent', version: '0.1.0', license: undefined, dir: 'node_modules/silent', text: undefined }
    ]
    const missing: Bundled = { ...fake[0], name: 'missing' }
    expect(problems(renderLicenses(fake), [...fake, missing])).toEqual([
      '@x/copyleft@2.0.0: GPL-3.0-only is not an allowed license',
      'silent@0.1.0: (none stated) is not an allowed license',
      'missing@1.0.0 is bundled but not listed'
    ])
  })

  it('dist/licenses.txt names every bundled package, each with an allowed license', () => {
    expect(bundled.length).toBeGreaterThan(10)
    expect(bundled.map(p => p.name)).toEqual(expect.arrayContaining(['@actions/core', 'zod', 'yaml', 'undici']))
    expect(problems(shipped, bundled)).toEqual([])
    expect(ALLOWED_LICENSES).toContain('MIT')
  })

  it('is the list npm run build writes, license texts included', () => {
    expect(shipped).toBe(renderLicenses(bundled))
    for (const p of bundled) expect([p.name, p.text !== undefined]).toEqual([p.name, true])
  })

  it('every bundled package is a production dependency, so npm audit --omit=dev covers it', () => {
    const lock = JSON.parse(readFileSync(`${ROOT}package-lock.json`, 'utf8')) as {
      packages: Record<string, { dev?: boolean; devOptional?: boolean }>
    }
    const dev = (dir: string) => lock.packages[dir]?.dev === true || lock.packages[dir]?.devOptional === true
    // The control: a package only the tests use is seen as one.
    expect(dev('node_modules/jest')).toBe(true)
    expect(bundled.filter(p => dev(p.dir) || !(p.dir in lock.packages)).map(p => p.dir)).toEqual([])
  })
})
