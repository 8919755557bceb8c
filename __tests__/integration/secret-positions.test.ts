/**
 * Secrets by position: a value standing where secrets stand (a URL's
 * userinfo, a query or fragment parameter named like a token whose value runs
 * to the next `&`, `;` or `#`, an Authorization header or other credential
 * field, a header line written as a string `Name: value`) is never shown,
 * whether it is today's value, the service's old one, or one of a check about
 * to be deleted; a change of it is said as "changed". Names are judged by
 * their last word, and nothing short or common is masked job-wide. Export
 * lifts each into a variable, there only, and never lifts (or masks) a value
 * that is not in such a place.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KEY, resultOf, runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator({ pageSize: 3 })
const dir = mkdtempSync(join(tmpdir(), 'secret-positions-'))
const env = { GITHUB_WORKSPACE: dir }

const exportTo = (file: string) => runAction(emulator, { operation: 'export-checks', 'checks-file': file }, { env })
const sync = (file: string, inputs: Record<string, string>, extraEnv: Record<string, string> = {}) =>
  runAction(emulator, { operation: 'sync-checks', 'checks-file': file, ...inputs }, { env: { ...env, ...extraEnv } })

/** Every form a secret may take in text the action writes: raw, percent-encoded, JSON-escaped, both. */
const formsOf = (secret: string) => {
  const json = JSON.stringify(secret).slice(1, -1)
  return [...new Set([secret, encodeURIComponent(secret), json, JSON.stringify(json).slice(1, -1)])]
}
const expectNone = (text: string, secrets: string[]) => {
  for (const secret of secrets) for (const form of formsOf(secret)) expect(text).not.toContain(form)
}

const OLD = ['OLDSECRET123', 'OLDPASSWORD9', 'OLDBEARER55xyz', 'GONESECRET77', 'gone:GONEPASS88']
const NEW = { CHECK_SHOP_TOKEN: 'NEWSECRET456', CHECK_OPS_USERINFO: 'ops:NEWPASSWORD7' }

describe('secrets by position in a plan (sync-checks)', () => {
  it('old, new and deleted secrets appear nowhere: log, result, error, summary, plan file; a rotation says "changed"', async () => {
    emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/health?token=OLDSECRET123&x=1' })
    emulator.seedCheck({ name: 'ops', url: 'https://ops:OLDPASSWORD9@ops.example.com/' })
    const exported = await exportTo('rotate.yml')
    expect(exported.core.failed).toBeUndefined()
    expect((resultOf(exported.core) as { variables: string[] }).variables).toEqual([
      'CHECK_OPS_USERINFO',
      'CHECK_SHOP_TOKEN'
    ])
    // Someone adds a header by hand on the service, and a check the file does not list (prune deletes it).
    emulator.checks.get([...emulator.checks.keys()][0])!.headers = { Authorization: 'Bearer OLDBEARER55xyz' }
    emulator.seedCheck({
      name: 'gone',
      url: 'https://gone:GONEPASS88@gone.example.com/cb#access_token=GONESECRET77',
      apiKey: 'GONESECRET77'
    })

    const { core } = await sync(
      'rotate.yml',
      { 'dry-run': 'true', 'fail-on-drift': 'true', prune: 'true', 'plan-file': 'plan.json' },
      NEW
    )
    expect(core.failed).toMatch(/^sync-checks: drift: 3 check\(s\) differ/)
    expect(core.outputs).toMatchObject({ updated: '2', deleted: '1', drift: 'true' })
    const plan = readFileSync(join(dir, 'plan.json'), 'utf8')
    const everything = core.everything() + plan
    expectNone(everything, [...OLD, ...Object.values(NEW), 'NEWPASSWORD7'])

    // A rotation is said as "changed": the URL with *** where the secret stands, and the marker.
    const result = resultOf(core) as Array<{ name: string; changes: Record<string, unknown> }>
    const shop = result.find(e => e.name === 'shop')!
    expect(shop.changes.url).toEqual({
      from: 'https://shop.example.com/health?token=***&x=1',
      to: 'https://shop.example.com/health?token=***&x=1',
      secretChanged: true
    })
    const ops = result.find(e => e.name === 'ops')!
    expect(ops.changes.url).toEqual({
      from: 'https://***@ops.example.com/',
      to: 'https://***@ops.example.com/',
      secretChanged: true
    })
    expect(core.failed).toContain('url: "https://shop.example.com/health?token=***&x=1" (secret changed)')
    expect(core.summaryText).toContain('(secret changed)')
    const gone = result.find(e => e.name === 'gone')!
    expect(gone.changes.url).toEqual({ from: 'https://***@gone.example.com/cb#access_token=***' })
    expect(gone.changes.apiKey).toEqual({ from: '***' })
    expect(JSON.parse(plan).checks).toEqual(result)
  })

  it('the approved plan still tells a secret that changed since the review: refused, and the message holds no secret', async () => {
    emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/?token=REVIEWED1234' })
    writeFileSync(join(dir, 'approve.yml'), '- name: shop\n  url: "https://shop.example.com/?token=${secret:TOKEN}"\n')
    const reviewed = await sync(
      'approve.yml',
      { 'dry-run': 'true', 'plan-file': 'approved.json' },
      {
        TOKEN: 'REVIEWED1234'
      }
    )
    expect(reviewed.core.outputs.unchanged).toBe('1')
    // Changed on the service by hand after the review: the plan now updates the token.
    ;[...emulator.checks.values()][0].url = 'https://shop.example.com/?token=BYHAND5678'
    const applied = await sync('approve.yml', { 'approved-plan': 'approved.json' }, { TOKEN: 'REVIEWED1234' })
    expect(applied.core.failed).toMatch(/^sync-checks refused: the plan differs from approved-plan approved.json/)
    expect(applied.core.failed).toContain('secret changed')
    expectNone(applied.core.everything(), ['REVIEWED1234', 'BYHAND5678'])
    expect(emulator.count('PUT')).toBe(0)
  })
})

describe('export lifts every value in a secret position', () => {
  it('a header, a fragment parameter, a ;-separated one, a jwt: variables; the round trip holds; a token-like path segment warns', async () => {
    const secrets = {
      bearer: 'Bearer abcdef0123456789',
      fragment: 'frag0123456789zz',
      semi: 'semi0123456789zz',
      jwt: 'eyJhbGciOiJIUzI1NiJ9.e30.sig0123',
      apiKey: 'k3y0123456789abc'
    }
    emulator.seedCheck({
      name: 'hdr',
      url: 'https://h.example.com/',
      headers: { Authorization: secrets.bearer, Accept: 'text/html' },
      apiKey: secrets.apiKey
    })
    emulator.seedCheck({ name: 'frag', url: `https://f.example.com/cb#access_token=${secrets.fragment}&state=1` })
    emulator.seedCheck({ name: 'semi', url: `https://s.example.com/?a=1;token=${secrets.semi}` })
    emulator.seedCheck({ name: 'jwt', url: `https://j.example.com/?jwt=${secrets.jwt}` })
    emulator.seedCheck({ name: 'hook', url: 'https://hooks.example.com/services/T0123/B0456/aZ3kP9qR7sT1uV5wX8yB2cD4' })
    const { core } = await exportTo('lifted.yml')
    expect(core.failed).toBeUndefined()
    const text = readFileSync(join(dir, 'lifted.yml'), 'utf8')
    expectNone(text + core.everything(), Object.values(secrets))
    const variables = (resultOf(core) as { variables: string[] }).variables
    expect(variables).toEqual([
      'CHECK_FRAG_ACCESS_TOKEN',
      'CHECK_HDR_HEADERS_AUTHORIZATION',
      'CHECK_HDR_APIKEY',
      'CHECK_JWT_JWT',
      'CHECK_SEMI_TOKEN'
    ])
    expect(text).toContain('Authorization: "${secret:CHECK_HDR_HEADERS_AUTHORIZATION}"')
    expect(text).toContain('Accept: "text/html"')
    expect(text).toContain('"https://f.example.com/cb#access_token=${secret:CHECK_FRAG_ACCESS_TOKEN}&state=1"')
    expect(text).toContain('"https://s.example.com/?a=1;token=${secret:CHECK_SEMI_TOKEN}"')
    // The path segment is not lifted (it may be an id), but the step warns naming the check, never the value.
    const warning = core.logs.find(l => l.startsWith('warning:') && l.includes('"hook"'))
    expect(warning).toContain('path segment')
    expect(warning).not.toContain('aZ3kP9qR7sT1uV5wX8yB2cD4')

    const values = {
      CHECK_FRAG_ACCESS_TOKEN: secrets.fragment,
      CHECK_HDR_APIKEY: secrets.apiKey,
      CHECK_HDR_HEADERS_AUTHORIZATION: secrets.bearer,
      CHECK_JWT_JWT: secrets.jwt,
      CHECK_SEMI_TOKEN: secrets.semi
    }
    const plan = await sync('lifted.yml', { 'dry-run': 'true', prune: 'true' }, values)
    expect(plan.core.failed).toBeUndefined()
    expect(plan.core.outputs).toMatchObject({ created: '0', updated: '0', deleted: '0', unchanged: '5' })
  })

  it('a number in a credential field cannot be a variable: refused naming the check and the field', async () => {
    const pin = emulator.seedCheck({ name: 'pin', url: 'https://p.example.com/', password: 73914682 })
    const { core } = await exportTo('pin.yml')
    expect(core.failed).toContain(`check ${pin.id} ("pin")`)
    expect(core.failed).toContain('field password')
    expect(core.everything()).not.toContain('73914682')
    expect(existsSync(join(dir, 'pin.yml'))).toBe(false)
  })
})

describe('a harmless value is never lifted nor masked', () => {
  it('bypass_cache=true, keyword=, a word or a number where a secret could stand: written as they are, nothing masked', async () => {
    emulator.seedCheck({ name: 'cache', url: 'https://c.example.com/?bypass_cache=true&keyword=monkey42&passport=1' })
    emulator.seedCheck({ name: 'words', url: 'https://w.example.com/?token=true&pass=1234&auth=off', verify: 'true' })
    emulator.seedCheck({ name: 'real', url: 'https://r.example.com/?x-api-key=R3alKey0123456' })
    const { core } = await exportTo('harmless.yml')
    expect(core.failed).toBeUndefined()
    expect(core.secrets).toContain('R3alKey0123456')
    for (const word of ['true', '1234', 'off', 'monkey42', '1']) expect(core.secrets).not.toContain(word)
    const text = readFileSync(join(dir, 'harmless.yml'), 'utf8')
    expect(text).toContain('"https://c.example.com/?bypass_cache=true&keyword=monkey42&passport=1"')
    expect(text).toContain('"https://w.example.com/?token=true&pass=1234&auth=off"')
    expect((resultOf(core) as { variables: string[] }).variables).toEqual(['CHECK_REAL_X_API_KEY'])
    expect(core.logs.join('\n')).not.toContain('::add-mask::true')

    // A variable whose name only looks secret (BYPASS) holding a word is not masked either.
    writeFileSync(
      join(dir, 'bypass.yml'),
      '- name: cache\n  url: "https://c.example.com/?bypass_cache=${BYPASS_CACHE}"\n'
    )
    const plan = await sync('bypass.yml', { 'dry-run': 'true' }, { BYPASS_CACHE: 'true' })
    expect(plan.core.failed).toBeUndefined()
    expect(plan.core.secrets).not.toContain('true')
  })
})

describe('secrets by position in the outputs of check operations', () => {
  it('get-check and list-checks: result, the log and the summary show *** where a secret stands', async () => {
    const check = emulator.seedCheck({
      name: 'hooked',
      url: 'https://ops:READPASS42@hook.example.com/cb?bypass_cache=true&token=READTOKEN42#access_token=READFRAG42',
      headers: { Authorization: 'Bearer READBEARER42' }
    })
    const steps: Array<Record<string, string>> = [
      { operation: 'get-check', 'check-id': check.id },
      { operation: 'list-checks' }
    ]
    for (const inputs of steps) {
      const { core } = await runAction(emulator, inputs, { env })
      expect(core.failed).toBeUndefined()
      expectNone(core.everything(), ['READPASS42', 'READTOKEN42', 'READFRAG42', 'READBEARER42'])
      // Only what stands in a secret position: the rest of the URL, and the harmless parameter, as they are.
      expect(core.outputs.result).toContain('https://***@hook.example.com/cb?bypass_cache=true&token=***')
      expect(core.outputs.result).toContain('"Authorization":"***"')
    }
  })
})

describe('a server error that echoes the request', () => {
  it('secrets of the step’s own check spec appear in no form: escaped JSON, header text, percent-encoded', async () => {
    const url = 'https://u:USERPW1234@shop.example.com/h?a=1&token=LITERALSECRET99#access_token=FRAGTOK5678'
    const check = { name: 'shop', url, headers: { Authorization: 'Bearer HDRSECRET777' }, password: 'FIELDPW8888' }
    const message = `invalid check: nested=${JSON.stringify(JSON.stringify(check))} plain=Authorization: Bearer HDRSECRET777 encoded=${encodeURIComponent(url)}`
    emulator.inject({ method: 'POST', path: '/checks', status: 422, body: { error: { message } }, times: 1 })
    const { core } = await runAction(emulator, { operation: 'upsert-check', check: JSON.stringify(check) }, { env })
    expect(core.failed).toMatch(/POST \/checks.*422/)
    expectNone(core.everything(), ['USERPW1234', 'LITERALSECRET99', 'FRAGTOK5678', 'HDRSECRET777', 'FIELDPW8888'])
  })
})

describe('credential headers written as strings', () => {
  const OLD = ['OLDBEARERabc123', 'OLDAPIKEY456def', 'ROTATEDKEY789gh', 'GONEKEY0123ijkl']

  it('old, rotated and pruned values: *** in the log, result, plan file and summary; a rotation says "changed"', async () => {
    emulator.seedCheck({
      name: 'shop',
      url: 'https://shop.example.com/',
      headers: ['Authorization: Bearer OLDBEARERabc123', 'Accept: */*'],
      requestHeaders: 'X-Api-Key: OLDAPIKEY456def'
    })
    emulator.seedCheck({ name: 'api', url: 'https://api.example.com/', headers: ['X-Api-Key: ROTATEDKEY789gh'] })
    emulator.seedCheck({ name: 'gone', url: 'https://gone.example.com/', headers: ['X-Api-Key: GONEKEY0123ijkl'] })
    writeFileSync(
      join(dir, 'headers.yml'),
      [
        '- name: shop',
        '  url: https://shop.example.com/',
        '  headers: ["Authorization: Bearer ${secret:SHOP_BEARER}", "Accept: */*"]',
        '  requestHeaders: "X-Api-Key: ${SHOP_API_KEY}"',
        '- name: api',
        '  url: https://api.example.com/',
        '  headers: ["X-Api-Key: ${API_KEY}"]',
        ''
      ].join('\n')
    )
    const NEW = { SHOP_BEARER: 'NEWBEARERmno345', SHOP_API_KEY: 'NEWAPIKEYpqr678', API_KEY: 'NEWKEYstu901vwx' }
    const { core } = await sync(
      'headers.yml',
      { 'dry-run': 'true', prune: 'true', 'plan-file': 'headers-plan.json' },
      NEW
    )
    expect(core.failed).toBeUndefined()
    expect(core.outputs).toMatchObject({ updated: '2', deleted: '1' })
    const plan = readFileSync(join(dir, 'headers-plan.json'), 'utf8')
    expectNone(core.everything() + plan, [...OLD, ...Object.values(NEW)])
    const result = resultOf(core) as Array<{ name: string; changes: Record<string, unknown> }>
    const shop = result.find(e => e.name === 'shop')!
    expect(shop.changes.headers).toEqual({
      from: ['Authorization: ***', 'Accept: */*'],
      to: ['Authorization: ***', 'Accept: */*'],
      secretChanged: true
    })
    expect(shop.changes.requestHeaders).toEqual({
      from: 'X-Api-Key: ***',
      to: 'X-Api-Key: ***',
      secretChanged: true
    })
    const gone = result.find(e => e.name === 'gone')!
    expect(gone.changes.headers).toEqual({ from: ['X-Api-Key: ***'] })
    expect(JSON.parse(plan).checks).toEqual(result)
  })

  it('get-check, list-checks and a dry-run delete-check show *** where a header line holds a credential', async () => {
    const check = emulator.seedCheck({
      name: 'hdr',
      url: 'https://hdr.example.com/',
      headers: ['AUTHORIZATION: Bearer READBEARER77', 'Accept: */*'],
      requestHeaders: 'X-Api-Key: READAPIKEY88'
    })
    const steps: Array<Record<string, string>> = [
      { operation: 'get-check', 'check-id': check.id },
      { operation: 'list-checks' },
      { operation: 'delete-check', 'check-id': check.id, 'dry-run': 'true' }
    ]
    for (const inputs of steps) {
      const { core } = await runAction(emulator, inputs, { env })
      expect(core.failed).toBeUndefined()
      expectNone(core.everything(), ['READBEARER77', 'READAPIKEY88'])
      expect(core.outputs.result).toContain('"headers":["AUTHORIZATION: ***","Accept: */*"]')
      expect(core.outputs.result).toContain('"requestHeaders":"X-Api-Key: ***"')
    }
    expect(emulator.checks.has(check.id)).toBe(true)
  })
})

describe('a parameter value holding a ?', () => {
  it('?token=abc?SECRETTAIL is shown as ?token=***, and export lifts the whole value', async () => {
    const check = emulator.seedCheck({ name: 'tail', url: 'https://t.example.com/h?token=abc?SECRETTAIL&x=1' })
    const got = await runAction(emulator, { operation: 'get-check', 'check-id': check.id }, { env })
    expect(got.core.failed).toBeUndefined()
    expect(got.core.outputs.result).toContain('"url":"https://t.example.com/h?token=***&x=1"')
    expect(got.core.everything()).not.toContain('SECRETTAIL')

    const exported = await exportTo('tail.yml')
    expect(exported.core.failed).toBeUndefined()
    const text = readFileSync(join(dir, 'tail.yml'), 'utf8')
    expect(text).toContain('"https://t.example.com/h?token=${secret:CHECK_TAIL_TOKEN}&x=1"')
    expect(text + exported.core.everything()).not.toContain('SECRETTAIL')
    const plan = await sync('tail.yml', { 'dry-run': 'true', prune: 'true' }, { CHECK_TAIL_TOKEN: 'abc?SECRETTAIL' })
    expect(plan.core.failed).toBeUndefined()
    expect(plan.core.outputs).toMatchObject({ created: '0', updated: '0', deleted: '0', unchanged: '1' })
  })
})

describe('harmless values are never masked job-wide', () => {
  it('AUTH_MODE=main, KEYCLOAK_REGION=europe, KEYWORD=healthy, AUTH_PORT=8443: no mask, the plan shows them', async () => {
    writeFileSync(
      join(dir, 'harmless-vars.yml'),
      [
        '- name: auth-${AUTH_MODE}',
        '  url: "https://kc.example.com/${KEYCLOAK_REGION}/?mode=${AUTH_MODE}&expect=${KEYWORD}&port=${AUTH_PORT}&session=${SESSION}"',
        ''
      ].join('\n')
    )
    const values = {
      AUTH_MODE: 'main',
      KEYCLOAK_REGION: 'europe',
      KEYWORD: 'healthy',
      AUTH_PORT: '8443',
      SESSION: 'short'
    }
    const { core } = await sync('harmless-vars.yml', { 'dry-run': 'true', 'plan-file': 'harmless-plan.json' }, values)
    expect(core.failed).toBeUndefined()
    for (const value of Object.values(values)) expect(core.secrets).not.toContain(value)
    const result = resultOf(core) as Array<{ name: string; changes: Record<string, { to: unknown }> }>
    expect(result[0].name).toBe('auth-main')
    // The session parameter stands in a secret position: *** there, though its value is not masked job-wide.
    expect(result[0].changes.url.to).toBe(
      'https://kc.example.com/europe/?mode=main&expect=healthy&port=8443&session=***'
    )
    expect(core.summaryText).toContain('auth-main')
    expect(readFileSync(join(dir, 'harmless-plan.json'), 'utf8')).toContain('"name": "auth-main"')
  })

  it('export of ?session=main lifts it into a variable without masking main job-wide', async () => {
    emulator.seedCheck({ name: 'main-site', url: 'https://main.example.com/' })
    emulator.seedCheck({ name: 'sess', url: 'https://s.example.com/?session=main' })
    const { core } = await exportTo('session.yml')
    expect(core.failed).toBeUndefined()
    expect(core.secrets).not.toContain('main')
    expect((resultOf(core) as { variables: string[] }).variables).toEqual(['CHECK_SESS_SESSION'])
    const text = readFileSync(join(dir, 'session.yml'), 'utf8')
    expect(text).toContain('"https://s.example.com/?session=${secret:CHECK_SESS_SESSION}"')
    expect(text).toContain('"https://main.example.com/"')
    expect(core.summaryText).toContain('main-site')
  })
})

describe('export lifts, never refuses, a value in a secret position', () => {
  it('?auth=internal on one check: lifted there only; the name internal-api of another stays as it is', async () => {
    emulator.seedCheck({ name: 'internal-api', url: 'https://internal.example.com/health' })
    emulator.seedCheck({ name: 'probe', url: 'https://p.example.com/?auth=internal', description: 'internal probe' })
    const { core } = await exportTo('internal.yml')
    expect(core.failed).toBeUndefined()
    expect(core.secrets).not.toContain('internal')
    const text = readFileSync(join(dir, 'internal.yml'), 'utf8')
    expect(text).toContain('"https://p.example.com/?auth=${secret:CHECK_PROBE_AUTH}"')
    expect(text).toContain('name: "internal-api"')
    expect(text).toContain('"https://internal.example.com/health"')
    expect(text).toContain('description: "internal probe"')
    expect(core.summaryText).toContain('internal-api')
    expect(core.everything()).not.toContain('***-api')
    const plan = await sync('internal.yml', { 'dry-run': 'true', prune: 'true' }, { CHECK_PROBE_AUTH: 'internal' })
    expect(plan.core.failed).toBeUndefined()
    expect(plan.core.outputs).toMatchObject({ created: '0', updated: '0', deleted: '0', unchanged: '2' })
  })

  it('a lifted value also standing in another field: lifted in its position only, the field kept, and a warning names it', async () => {
    const leaky = emulator.seedCheck({
      name: 'leaky',
      url: 'https://l.example.com/?token=LEAKYTOKEN12345',
      notes: 'rotate LEAKYTOKEN12345 monthly'
    })
    const { core } = await exportTo('leaky.yml')
    expect(core.failed).toBeUndefined()
    const text = readFileSync(join(dir, 'leaky.yml'), 'utf8')
    expect(text).toContain('"https://l.example.com/?token=${secret:CHECK_LEAKY_TOKEN}"')
    expect(text).toContain('notes: "rotate LEAKYTOKEN12345 monthly"')
    const warning = core.logs.find(l => l.startsWith('warning: export-checks: check'))
    expect(warning).toContain(`check ${leaky.id} ("leaky") holds, in the field notes, the same text as a value lifted`)
    expect(warning).not.toContain('LEAKYTOKEN12345')
  })

  it('a name that holds a long lifted value (internal2026-api) is neither refused nor shown as ***', async () => {
    emulator.seedCheck({ name: 'probe', url: 'https://p.example.com/?auth=internal2026' })
    emulator.seedCheck({ name: 'internal2026-api', url: 'https://internal.example.com/health' })
    const { core } = await exportTo('long-lifted.yml')
    expect(core.failed).toBeUndefined()
    expect(readFileSync(join(dir, 'long-lifted.yml'), 'utf8')).toContain('name: "internal2026-api"')
    expect(core.logs.join('\n')).toContain('holds, in the field name, the same text as a value lifted')
  })

  it('the api-key in a field where no variable can stand: refused, naming the check and the field', async () => {
    const leaky = emulator.seedCheck({ name: 'keyed', url: 'https://k.example.com/', notes: `key ${KEY}` })
    const { core } = await exportTo('keyed.yml')
    expect(core.failed).toContain(`check ${leaky.id} ("keyed")`)
    expect(core.failed).toContain('field notes')
    expect(core.everything()).not.toContain(KEY)
    expect(existsSync(join(dir, 'keyed.yml'))).toBe(false)
  })
})

describe('a server message that repeats a {name, value} header pair', () => {
  it('a short pair value never shows in the error output or the log: masked by its position', async () => {
    const spec = JSON.stringify({
      name: 'shop',
      url: 'https://shop.example.com/',
      headers: [{ name: 'X-Api-Key', value: 'k3y-12' }, 'X-Auth-Token: tok9']
    })
    emulator.inject({
      method: 'POST',
      path: '/checks',
      status: 422,
      body: { error: { message: 'invalid headers: [{"name":"X-Api-Key","value":"k3y-12"},"X-Auth-Token: tok9"]' } }
    })
    const { core } = await runAction(emulator, { operation: 'create-check', check: spec, 'max-retries': '0' })
    expect(core.outputs.error).toContain('[{"name":"X-Api-Key","value":"***"},"X-Auth-Token: ***"]')
    expect(core.everything()).not.toContain('k3y-12')
    expect(core.everything()).not.toContain('tok9')
  })
})
