/**
 * `npm run --silent release-notes -- v1.2.3`: check that a release tag may be
 * cut, and print its notes. The tag must be a version (`v1.2.3`, or a
 * pre-release `v1.2.3-rc.1`) equal to package.json's `version`, and
 * CHANGELOG.md must have that version's section, no longer marked
 * "(unreleased)". The notes are the section's text, without its heading.
 * The release workflow (.github/workflows/release.yml) runs it; so can a
 * maintainer before tagging (docs/releasing.md). Exits 1, saying why, when
 * the tag may not be cut.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const TAG = /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/

export interface Release {
  /** `1.2.3` or `1.2.3-rc.1` */
  version: string
  /** The major tag that follows releases: `v1`. */
  major: string
  prerelease: boolean
  notes: string
}

/** The release a tag names, checked against package.json's version and the changelog. Throws saying why not. */
export function releaseOf(tag: string, packageVersion: string, changelog: string): Release {
  const match = TAG.exec(tag)
  if (!match)
    throw new Error(`${JSON.stringify(tag)} is not a release tag: write v<major>.<minor>.<patch>, e.g. v1.2.3`)
  const version = tag.slice(1)
  if (packageVersion !== version) {
    throw new Error(`the tag says ${version}, package.json says ${packageVersion}: set "version" to ${version} first`)
  }
  const lines = changelog.split('\n')
  const escaped = version.replace(/[.+]/g, '\\$&')
  const start = lines.findIndex(line => new RegExp(`^## \\[?${escaped}\\]?(\\s|$)`).test(line))
  if (start < 0) throw new Error(`CHANGELOG.md has no "## ${version}" section`)
  if (/unreleased/i.test(lines[start])) {
    throw new Error(`CHANGELOG.md still says "${lines[start].slice(3)}": give the section its date first`)
  }
  const next = lines.findIndex((line, i) => i > start && /^## /.test(line))
  const notes = lines
    .slice(start + 1, next < 0 ? undefined : next)
    .join('\n')
    .trim()
  if (notes === '') throw new Error(`CHANGELOG.md's "## ${version}" section is empty`)
  return { version, major: `v${match[1]}`, prerelease: match[4] !== undefined, notes }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = new URL('../', import.meta.url)
  try {
    const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string }
    const release = releaseOf(process.argv[2] ?? '', version, readFileSync(new URL('CHANGELOG.md', root), 'utf8'))
    console.log(release.notes)
  } catch (error) {
    console.error(`release-notes: ${(error as Error).message}`)
    process.exit(1)
  }
}
