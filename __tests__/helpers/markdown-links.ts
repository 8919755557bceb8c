/**
 * Relative links and #anchors of the project's Markdown, checked as GitHub
 * shows them: each file is rendered by GitHub's renderer (cmark-gfm), every
 * `href` and `src` that is not a URL must name a file or folder that exists,
 * and an anchor must be the slug GitHub gives one of the target's headings
 * (or an `id`/`name` of its raw HTML). Files of the repository named in code
 * (`__tests__/unit/x.test.ts`, `src/main.ts`) must exist too.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { renderGfm } from './consumers.js'

/** Folders that hold no Markdown of the project's own. */
const SKIP = new Set(['node_modules', 'dist', '.cache', '.git', 'build', 'coverage'])

/** Every *.md of the project, relative to `root`. */
export function markdownFiles(root: string, dir = root): string[] {
  return readdirSync(dir)
    .filter(name => !SKIP.has(name) && !(name.startsWith('.') && name !== '.github'))
    .flatMap(name => {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) return markdownFiles(root, path)
      return name.endsWith('.md') ? [relative(root, path)] : []
    })
    .sort()
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" }
const text = (html: string) =>
  html.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_m, e: string) => ENTITIES[e])

/** GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens (github-slugger). */
export function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-')
}

/** The anchors a rendered Markdown file offers: its headings' slugs (repeats get -1, -2...) and raw ids. */
export function anchorsOf(html: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const m of html.matchAll(/<h[1-6][^>]*>([\s\S]*?)<\/h[1-6]>/g)) {
    const base = slug(text(m[1]).trim())
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  for (const m of html.matchAll(/<[a-z][^>]*\s(?:id|name)="([^"]+)"/g)) anchors.add(m[1])
  return anchors
}

/** The links (`href`, `src`) of a rendered file that stay in the repository. */
function relativeLinks(html: string): string[] {
  return [...html.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]*)"/g)]
    .map(m => text(m[1]))
    .filter(link => !/^[a-z][a-z0-9+.-]*:/i.test(link) && !link.startsWith('//'))
}

/**
 * Every link of `file` (relative to `root`) that does not resolve, as
 * `file: link (why)`. `source` replaces the file's text (for a control).
 */
export function brokenLinks(root: string, file: string, source?: string): string[] {
  const html = renderGfm(source ?? readFileSync(join(root, file), 'utf8'))
  const broken: string[] = []
  const rendered = new Map<string, Set<string>>()
  const anchorsIn = (target: string) => {
    if (!rendered.has(target)) rendered.set(target, anchorsOf(renderGfm(readFileSync(target, 'utf8'))))
    return rendered.get(target) as Set<string>
  }
  for (const link of relativeLinks(html)) {
    const [rawPath, anchor] = link.split('#', 2) as [string, string | undefined]
    const path = decodeURIComponent(rawPath)
    const target =
      path === '' ? join(root, file) : path.startsWith('/') ? join(root, path) : resolve(root, dirname(file), path)
    if (!target.startsWith(resolve(root))) {
      broken.push(`${file}: ${link} (outside the repository)`)
    } else if (path !== '' && !existsSync(target)) {
      broken.push(`${file}: ${link} (no ${relative(root, target) || '.'})`)
    } else if (anchor && target.endsWith('.md')) {
      const anchors = path === '' ? anchorsOf(html) : anchorsIn(target)
      if (!anchors.has(decodeURIComponent(anchor))) broken.push(`${file}: ${link} (no heading #${anchor} there)`)
    }
  }
  return broken
}

/** Folders of the repository a path in code may start with; a test's own folders are under __tests__/. */
const TOP = /^(?:__tests__|src|scripts|emulator|docs|examples|schemas|\.github)\//
const TEST_DIRS = /^(?:unit|integration|e2e|helpers|fixtures)\//

/**
 * Every file of the repository that `file` names in inline code (a path with
 * an extension, under one of its folders) and that does not exist.
 */
export function missingPaths(root: string, file: string, source?: string): string[] {
  const html = renderGfm(source ?? readFileSync(join(root, file), 'utf8')).replace(/<pre[\s\S]*?<\/pre>/g, '')
  const missing: string[] = []
  for (const m of html.matchAll(/<code>([^<]+)<\/code>/g)) {
    const path = text(m[1]).trim()
    if (!/^[\w./-]+\.[a-z]{1,5}$/.test(path)) continue
    const full = TOP.test(path) ? join(root, path) : TEST_DIRS.test(path) ? join(root, '__tests__', path) : undefined
    if (full && !existsSync(full)) missing.push(`${file}: \`${path}\` (no such file)`)
  }
  return missing
}
