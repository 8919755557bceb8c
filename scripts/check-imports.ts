/**
 * `npm run lint:imports`: the house's import directions (docs/design-map.md),
 * checked. Every relative import in src/ and emulator/ must go where its
 * room may import; anything else is an error naming the file, the line and
 * the rule; and no circle may run among src/'s rooms (an arrow back up), nor
 * among its files (two that import each other, in one room too). Part
 * of `npm run lint`, so CI fails on an import against the grain.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../', import.meta.url))

/** The story rooms under src/operations/, each a folder (docs/design.md, "The operations floor"). */
export const STORIES = ['checks', 'sync', 'gate', 'incidents', 'status-pages', 'service']

/** The name rules' room under src/operations/: which checks a selection names, and what full reads prove. */
const NAMES = /^src\/operations\/names\//
/** The shared operation modules beside the rooms (the registry apart: it imports every story). */
const SHARED = /^src\/operations\/(?!registry)[^/]+\.ts$/

/** What every operation module may use beneath it: the API, lazy modules and the ground floor (values, secrets, the run's facts). */
const OPERATIONS_GROUND = [
  /^src\/api\//,
  /^src\/lazy\//,
  /^src\/values\//,
  /^src\/secrets\//,
  /^src\/run\/(config|specs|run-context)\.ts$/
]

/** Room (a file pattern) -> what it may import (relative imports; packages are free). Data flows down this list. */
export const RULES: Array<{ room: RegExp; may: RegExp[]; why: string }> = [
  {
    room: /^src\/index\.ts$/,
    may: [/^src\/main\.ts$/, /^src\/cli\/entry\.ts$/],
    why: 'the entry point only opens a door: the step (main) or the command (cli/entry)'
  },
  {
    room: /^src\/main\.ts$/,
    may: [/^src\/(core|step)\//],
    why: "the step's entry: the core's run() with the runner's dependencies, and what tests and scripts import of them; no logic of its own, never the command's door"
  },
  {
    room: /^src\/cli\//,
    may: [/^src\/(?!index\.ts$|main\.ts$|step\/)/],
    why: "the command's door: where its inputs come from and where outputs, logs and the summary go, over the core (core/, run/); never the step's entry (main) nor the runner's door (step/)"
  },
  {
    room: /^src\/step\//,
    may: [/^src\/(?!main\.ts$|index\.ts$|cli\/)/],
    why: "the runner's door: the runner's dependencies (@actions/core, the process) over the core; never main, nor the command's door"
  },
  {
    room: /^src\/inputs\//,
    may: [
      /^src\/inputs\//,
      /^src\/values\//,
      /^src\/run\/(config|specs)\.ts$/,
      /^src\/operations\/registry\.ts$/,
      /^src\/lazy\//
    ],
    why: 'inputs read strings into a Config, checked against the registry'
  },
  {
    room: /^src\/core\//,
    may: [/^src\/(?!index\.ts$|main\.ts$|step\/|cli\/)/],
    why: 'the core: what a run does whatever the door (what run() is given, a failure told); it knows neither door'
  },
  { room: /^src\/run\/config\.ts$/, may: [/^src\/values\/values\.ts$/], why: 'the Config type is plain data' },
  {
    room: /^src\/operations\/registry\.ts$/,
    may: [/^src\/operations\//, ...OPERATIONS_GROUND],
    why: 'the registry names every operation of every story'
  },
  ...STORIES.map(story => ({
    room: new RegExp(`^src/operations/${story}/`),
    may: [new RegExp(`^src/operations/${story}/`), NAMES, SHARED, ...OPERATIONS_GROUND],
    why: `a story's room (${story}/) uses its own files, the name rules (names/), the shared operation modules and the API; never another story, inputs, outputs or Markdown`
  })),
  {
    room: NAMES,
    may: [NAMES, SHARED, ...OPERATIONS_GROUND],
    why: 'the name rules (which checks a name, a prefix or a pattern means; what full reads prove; identical checks; convergence) serve every story and import none'
  },
  {
    room: SHARED,
    may: [SHARED, ...OPERATIONS_GROUND],
    why: 'shared operation modules (types, small helpers) lie beneath every story and the name rules, and import none of them'
  },
  {
    room: /^src\/api\//,
    may: [/^src\/api\//, /^src\/values\/values\.ts$/, /^src\/secrets\//],
    why: 'the API client knows HTTP, not operations, inputs or the runner'
  },
  {
    room: /^src\/github\//,
    may: [/^src\/github\//, /^src\/lazy\//, /^src\/run\/run-context\.ts$/, /^src\/api\/types\.ts$/],
    why: 'the GitHub calls (the comment, the job page) talk to GitHub only; they are handed Markdown and facts, never operations or inputs'
  },
  {
    room: /^src\/report\//,
    may: [
      /^src\/report\//,
      /^src\/secrets\//,
      /^src\/values\/(values|markup)\.ts$/,
      /^src\/run\/runner\.ts$/,
      /^src\/operations\/types\.ts$/
    ],
    why: 'reports turn operation results into log lines, outputs and Markdown'
  },
  {
    room: /^src\/secrets\//,
    may: [/^src\/secrets\//, /^src\/values\//],
    why: 'the ground floor: secrets by value and by position, over plain values and their markup'
  },
  {
    room: /^src\/run\/(specs|run-context|runner)\.ts$/,
    may: [/^src\/values\//, /^src\/lazy\//],
    why: "the ground floor: the specs a user writes, the run's facts, what a door gives the core"
  },
  {
    room: /^src\/values\//,
    may: [/^src\/values\//, /^src\/lazy\//],
    why: 'the ground floor: plain values, their parsers and their markup'
  },
  {
    room: /^emulator\//,
    may: [/^emulator\//],
    why: 'the emulator is a product of its own: it never imports the action'
  }
]

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap(entry => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.ts$/.test(entry.name) ? [path] : []
  })
}

/**
 * An import or re-export (one line, or its names over several: `import {` ... `} from '../x.js'`), a bare
 * import (`import './x.js'`), or a dynamic one (`import('./x.js')`): the relative path it names is its last group.
 */
const IMPORT =
  /^[ \t]*(?:(?:import|export)\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\}|\w+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+\w+))?)\s+from\s+|import\s+)['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/gm

/** The relative imports of one file (its path from the root, and its text): each one's line and the file it names. */
function importsOf(file: string, text: string): Array<{ line: number; to: string }> {
  return [...text.matchAll(IMPORT)].map(match => ({
    line: text.slice(0, match.index).split('\n').length,
    to: relative('.', normalize(join(dirname(file), match[1] ?? match[2])).replace(/\.js$/, '.ts'))
  }))
}

/** The imports of one file (its path from the root, and its text) that break a rule, as "file:line: ...". */
export function check(file: string, text: string): string[] {
  const rule = RULES.find(r => r.room.test(file))
  const found: string[] = []
  for (const { line, to } of importsOf(file, text)) {
    if (!rule) {
      found.push(`${file}:${line}: imports ${to}, but this file belongs to no room of scripts/check-imports.ts`)
    } else if (!rule.may.some(allowed => allowed.test(to))) {
      found.push(`${file}:${line}: imports ${to}; not allowed (${rule.why})`)
    }
  }
  return found
}

/** A file's room: its folder under src/ (`src/operations/` with its stories is one), or the file itself at src/'s root. */
export function roomOf(file: string): string {
  return /^src\/[^/]+\//.exec(file)?.[0] ?? file
}

/**
 * The circles among src/'s rooms (each as the rooms on it, in order): an arrow
 * that runs back up, from a room to one that imports it, directly or not.
 * `files` maps a file's path from the root to its text (src/'s own by default).
 */
export function roomCycles(files: Map<string, string> = sourceTexts('src')): string[][] {
  return circlesOf(files, roomOf)
}

/**
 * The circles among src/'s files, within a room too (two files that import each
 * other, directly or not): each file's imports run one way, so that a rule's
 * owner sits beneath the files that use it.
 */
export function fileCycles(files: Map<string, string> = sourceTexts('src')): string[][] {
  return circlesOf(files, file => file)
}

/** The circles among the nodes `nodeOf` puts the files in (an arrow within one node is none). */
function circlesOf(files: Map<string, string>, nodeOf: (file: string) => string): string[][] {
  const arrows = new Map<string, Set<string>>()
  for (const [file, text] of files) {
    for (const { to } of importsOf(file, text)) {
      const [from, into] = [nodeOf(file), nodeOf(to)]
      if (from !== into) arrows.set(from, (arrows.get(from) ?? new Set()).add(into))
    }
  }
  const circles: string[][] = []
  const done = new Set<string>()
  const walk = (node: string, path: string[]): void => {
    const at = path.indexOf(node)
    if (at >= 0) return void circles.push(path.slice(at))
    if (done.has(node)) return
    for (const next of arrows.get(node) ?? []) walk(next, [...path, node])
    done.add(node)
  }
  for (const node of [...arrows.keys()].sort()) walk(node, [])
  return circles
}

function sourceTexts(dir: string): Map<string, string> {
  return new Map(sources(dir).map(file => [file, readFileSync(join(ROOT, file), 'utf8')]))
}

/** Every import in src/ and emulator/ that breaks a rule. */
export function violations(): string[] {
  return [...sources('src'), ...sources('emulator')].flatMap(file =>
    check(file, readFileSync(join(ROOT, file), 'utf8'))
  )
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = [
    ...violations(),
    ...roomCycles().map(circle => `a circle among the rooms: ${[...circle, circle[0]].join(' -> ')}`),
    ...fileCycles().map(circle => `a circle among the files: ${[...circle, circle[0]].join(' -> ')}`)
  ]
  for (const problem of problems) console.error(problem)
  if (problems.length > 0) {
    console.error(`${problems.length} import(s) against the house's directions (docs/design-map.md)`)
    process.exit(1)
  }
  console.log('imports follow the house directions (docs/design-map.md)')
}
