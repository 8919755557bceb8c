/**
 * A small fake of GitHub's REST API for pull-request comments, on 127.0.0.1:
 * list an issue's comments (paginated with a Link header, as GitHub does),
 * create one, update one, delete one. The action reaches it through
 * GITHUB_API_URL. It can refuse every request with 403 or 404 (a fork's
 * read-only token), answer a few requests with GitHub's own failures (a 502,
 * a secondary or a primary rate limit), refuse some changes of one comment
 * or issue (an edit, a deletion, a closing), or of the first comments or
 * issues made through the API that a rule chosen before they exist picks
 * (refuseMade: the first comment on a pull request, the first issue of a
 * title), show a new comment or
 * issue in its lists only a moment after creating it (GitHub's lists are
 * eventually consistent), never answer or answer only with headers, and it
 * records what it was asked.
 */
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeComment {
  id: number
  body: string
  html_url: string
  user: { login: string; type: string }
}

export interface FakeIssue {
  number: number
  title: string
  body: string
  state: 'open' | 'closed'
  state_reason?: string | null
  html_url: string
  user: { login: string; type: string }
  /** Set on a pull request (GitHub lists pull requests among issues). */
  pull_request?: { url: string }
}

/**
 * One of GitHub's own failures, answered instead of the request:
 * - `bad-gateway`: 502, as GitHub's front end answers when a backend is down for a moment;
 * - `secondary-rate-limit`: 403 with `retry-after` and GitHub's message about a secondary rate limit;
 * - `primary-rate-limit`: 403 with `x-ratelimit-remaining: 0` and `x-ratelimit-reset` (the token's hourly budget used up);
 * - `too-many-requests`: 429 with `retry-after` and only "Too Many Requests" (no word of a secondary limit).
 */
export type FakeFailure = 'bad-gateway' | 'secondary-rate-limit' | 'primary-rate-limit' | 'too-many-requests'

export interface FailureRule {
  failure: FakeFailure
  /** Only requests of this method (default: any). */
  method?: string
  /** Only requests whose path (without the query) matches (default: any). */
  path?: RegExp
  /** How many matching requests get it (default 1; Infinity for every one). */
  times?: number
  /** secondary-rate-limit, too-many-requests: the retry-after header, in seconds (default 1). */
  retryAfterSeconds?: number
  /** primary-rate-limit: seconds from now until x-ratelimit-reset (default 1). */
  resetInSeconds?: number
}

/** What GitHub says with each status it refuses a change with. */
const REFUSALS: Record<number, string> = {
  403: 'Resource not accessible by integration',
  404: 'Not Found',
  410: 'This issue was deleted',
  422: 'Validation Failed'
}

/** A refusal of some changes of one comment or issue (an edit of a body or title, a deletion, a closing), with a status. */
interface Refusal {
  status: number
  refused: Array<'edit' | 'delete' | 'close'>
}

/**
 * Refusals for comments or issues not made yet (refuseMade): the next `count` (default 1) made
 * through the API that the rule picks get `refused` with `status`, as refuseComment or refuseIssue
 * would give them once they exist.
 */
export type MadeRefusal =
  | {
      kind: 'comment'
      /** Only comments on this issue or pull request ("owner/repo#n"). */ on?: string
      status: number
      refused: Array<'edit' | 'delete'>
      count?: number
    }
  | {
      kind: 'issue'
      /** Only issues of this repository ("owner/repo"). */ repo?: string
      /** Only issues made with this title. */ title?: string
      status: number
      refused: Array<'edit' | 'close'>
      count?: number
    }

export interface SeenRequest {
  method: string
  path: string
  authorization: string
  /** The request's body as sent ('' for none). */
  body: string
}

/** One page of `items` as GitHub answers a list: `per_page` (30, at most 100), `page`, a Link header with next and last. */
function paged<T>(url: URL, items: T[]): { rows: T[]; headers: Record<string, string> } {
  const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), 100)
  const page = Number(url.searchParams.get('page') ?? 1)
  const last = Math.max(1, Math.ceil(items.length / perPage))
  const link = (p: number, rel: string) => {
    const next = new URL(url)
    next.searchParams.set('page', String(p))
    return `<${next.href}>; rel="${rel}"`
  }
  const headers: Record<string, string> = {}
  if (page < last) headers.Link = [link(page + 1, 'next'), link(last, 'last')].join(', ')
  return { rows: items.slice((page - 1) * perPage, page * perPage), headers }
}

export class FakeGitHub {
  /** Comments by "owner/repo#number". */
  readonly comments = new Map<string, FakeComment[]>()
  /** Issues (and pull requests) by "owner/repo", oldest first. */
  readonly issues = new Map<string, FakeIssue[]>()
  readonly requests: SeenRequest[] = []
  /** The jobs of every run attempt (GET .../actions/runs/{id}/attempts/{n}/jobs). */
  jobs: Array<{ id: number; name: string; status: string; runner_name: string | null; html_url: string }> = []
  /** Answer every request with this status (403, 404...) and GitHub's kind of message. */
  refuse: number | undefined
  /** Refuse every edit of a comment with 403, as GitHub does for a comment the token may not edit. */
  refuseEdits = false
  /** Never answer (a GitHub that hangs). */
  hang = false
  /** Send the status and headers of every answer, then never its body. */
  hangAfterHeaders = false
  /** Answer every request this long after it arrived (a slow GitHub, where racing runs overlap). */
  delayMs = 0
  /**
   * A comment or an issue created through the API shows in lists only this long after it was
   * created (GitHub's lists are eventually consistent); reading or editing it by its id works at once.
   */
  listDelayMs = 0
  /** GitHub's own failures still to answer, matched in order (see `fail`). */
  readonly failures: FailureRule[] = []
  /** Comments (by id) whose changes are refused (refuseComment). */
  private refusedComments = new Map<number, Refusal>()
  /** Issues (by "owner/repo#number") whose changes are refused (refuseIssue). */
  private refusedIssues = new Map<string, Refusal>()
  /** Refusals for comments and issues still to be made (refuseMade), in order. */
  private readonly madeRefusals: MadeRefusal[] = []
  /** When each comment or issue made through the API shows in lists (Date.now() time). */
  private visibleAt = new WeakMap<object, number>()
  url = ''
  private nextId = 1000
  private server = http.createServer((req, res) => {
    let body = ''
    req.on('data', chunk => (body += chunk))
    req.on('end', () =>
      this.delayMs > 0 ? setTimeout(() => this.handle(req, body, res), this.delayMs) : this.handle(req, body, res)
    )
  })

  async start(): Promise<string> {
    await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', () => resolve()))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this.url
  }

  stop(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise(resolve => this.server.close(() => resolve()))
  }

  reset(): void {
    this.comments.clear()
    this.issues.clear()
    this.requests.length = 0
    this.refuse = undefined
    this.refuseEdits = false
    this.hang = false
    this.hangAfterHeaders = false
    this.refusedComments.clear()
    this.refusedIssues.clear()
    this.madeRefusals.length = 0
    this.delayMs = 0
    this.listDelayMs = 0
    this.failures.length = 0
    this.jobs = []
  }

  /** Answer the next matching request (or `times` of them) with one of GitHub's own failures. */
  fail(rule: FailureRule): void {
    this.failures.push({ times: 1, ...rule })
  }

  /**
   * Refuse these changes of one comment (its edits, its deletion) with `status` (403, 404 or 422,
   * with GitHub's message); other comments are changed as usual.
   */
  refuseComment(id: number, status: number, refused: Array<'edit' | 'delete'> = ['edit']): void {
    this.refusedComments.set(id, { status, refused })
  }

  /**
   * Refuse these changes of one issue (an edit of its title or body, which a reopening carries; a
   * closing, a change of its state alone) with `status` (403, 404, 410 or 422).
   */
  refuseIssue(repo: string, number: number, status: number, refused: Array<'edit' | 'close'> = ['edit']): void {
    this.refusedIssues.set(`${repo}#${number}`, { status, refused })
  }

  /**
   * Refuse changes of comments or issues not made yet: the next `count` (default 1) made through the
   * API that `rule` picks (a comment on `on`; an issue of `repo` titled `title`) are refused as
   * refuseComment or refuseIssue refuses, from the moment each is made. A rule chosen before the
   * comment or issue exists: "the first drift issue of this file", "the first comment on this pull request".
   */
  refuseMade(rule: MadeRefusal): void {
    this.madeRefusals.push({ ...rule, count: rule.count ?? 1 })
  }

  /** The changes refused of one comment (refuseComment, refuseMade), if any. */
  refusedOfComment(id: number): ReadonlyArray<'edit' | 'delete' | 'close'> | undefined {
    return this.refusedComments.get(id)?.refused
  }

  /** The changes refused of one issue (refuseIssue, refuseMade), if any. */
  refusedOfIssue(repo: string, number: number): ReadonlyArray<'edit' | 'delete' | 'close'> | undefined {
    return this.refusedIssues.get(`${repo}#${number}`)?.refused
  }

  /** A comment just made on `issue`: refused from now on if a refuseMade rule picks it. */
  private refuseIfPicked(made: FakeComment, issue: string): void {
    const rule = this.madeRefusals.find(
      r => r.kind === 'comment' && (r.count ?? 0) > 0 && (r.on === undefined || r.on === issue)
    )
    if (!rule) return
    rule.count = (rule.count ?? 1) - 1
    this.refusedComments.set(made.id, { status: rule.status, refused: rule.refused })
  }

  /** An issue just made in `repo`: refused from now on if a refuseMade rule picks it. */
  private refuseIssueIfPicked(made: FakeIssue, repo: string): void {
    const rule = this.madeRefusals.find(
      r =>
        r.kind === 'issue' &&
        (r.count ?? 0) > 0 &&
        (r.repo === undefined || r.repo === repo) &&
        (r.title === undefined || r.title === made.title)
    )
    if (!rule) return
    rule.count = (rule.count ?? 1) - 1
    this.refusedIssues.set(`${repo}#${made.number}`, { status: rule.status, refused: rule.refused })
  }

  /** The items a list shows now: those made through the API only once `listDelayMs` has passed. */
  private listed<T extends object>(items: T[]): T[] {
    const now = Date.now()
    return items.filter(item => (this.visibleAt.get(item) ?? 0) <= now)
  }

  /** Made through the API: shown in lists after `listDelayMs`. */
  private made<T extends object>(item: T): T {
    if (this.listDelayMs > 0) this.visibleAt.set(item, Date.now() + this.listDelayMs)
    return item
  }

  /** The failure rule that takes this request, if one does (its count goes down). */
  private failureFor(method: string, path: string): FailureRule | undefined {
    const rule = this.failures.find(
      r => (r.times ?? 1) > 0 && (r.method === undefined || r.method === method) && (r.path?.test(path) ?? true)
    )
    if (rule) rule.times = (rule.times ?? 1) - 1
    return rule
  }

  /** Comments someone else wrote (a person, unless `by` says another author), to push ours to a later page. */
  seed(
    issue: string,
    count: number,
    body = (i: number) => `a comment by a person (${i})`,
    by: { login: string; type: string } = { login: 'person', type: 'User' }
  ): void {
    const list = this.comments.get(issue) ?? []
    for (let i = 0; i < count; i++) list.push(this.comment(issue, body(i), by.login, by.type))
    this.comments.set(issue, list)
  }

  /** An issue someone wrote (a person, unless `by` says another author); a pull request with `pullRequest`. */
  seedIssue(
    repo: string,
    fields: Partial<FakeIssue> = {},
    by: { login: string; type: string } = { login: 'person', type: 'User' }
  ): FakeIssue {
    const list = this.issues.get(repo) ?? []
    const number = list.length + 1
    const issue: FakeIssue = {
      number,
      title: 'an issue',
      body: '',
      state: 'open',
      html_url: `https://github.example.com/${repo}/issues/${number}`,
      user: by,
      ...fields
    }
    this.issues.set(repo, [...list, issue])
    return issue
  }

  private comment(issue: string, body: string, login: string, type: string): FakeComment {
    const id = this.nextId++
    const [repo, number] = issue.split('#')
    return {
      id,
      body,
      html_url: `https://github.example.com/${repo}/pull/${number}#issuecomment-${id}`,
      user: { login, type }
    }
  }

  private handle(req: http.IncomingMessage, body: string, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', this.url)
    this.requests.push({
      method: req.method ?? '',
      path: url.pathname + url.search,
      authorization: req.headers.authorization ?? '',
      body
    })
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers })
      res.end(JSON.stringify(value))
    }
    if (this.hang) return
    if (this.hangAfterHeaders) {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': '1000' })
      res.flushHeaders()
      return
    }
    const refuse = ({ status }: Refusal) =>
      send(status, { message: REFUSALS[status] ?? 'Refused', documentation_url: 'https://docs.github.com/rest' })
    const failure = this.failureFor(req.method ?? '', url.pathname)
    if (failure?.failure === 'bad-gateway') return send(502, { message: 'Server Error' })
    if (failure?.failure === 'secondary-rate-limit') {
      return send(
        403,
        {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.',
          documentation_url:
            'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
          status: '403'
        },
        { 'retry-after': String(failure.retryAfterSeconds ?? 1) }
      )
    }
    if (failure?.failure === 'too-many-requests')
      return send(429, { message: 'Too Many Requests' }, { 'retry-after': String(failure.retryAfterSeconds ?? 1) })
    if (failure?.failure === 'primary-rate-limit') {
      const reset = Math.ceil(Date.now() / 1000 + (failure.resetInSeconds ?? 1))
      return send(
        403,
        {
          message: 'API rate limit exceeded for installation ID 4242.',
          documentation_url:
            'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-primary-rate-limits',
          status: '403'
        },
        {
          'x-ratelimit-limit': '5000',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-used': '5000',
          'x-ratelimit-reset': String(reset),
          'x-ratelimit-resource': 'core'
        }
      )
    }
    if (this.refuse !== undefined) {
      const message = this.refuse === 403 ? 'Resource not accessible by integration' : 'Not Found'
      return send(this.refuse, {
        message,
        documentation_url: 'https://docs.github.com/rest',
        status: String(this.refuse)
      })
    }
    if (!/^(token|bearer) \S+$/i.test(req.headers.authorization ?? '')) {
      return send(401, { message: 'Requires authentication' })
    }
    const token = (req.headers.authorization ?? '').split(' ')[1] ?? ''
    // An installation token (the job's) cannot read /user and writes as a bot; a personal one is a user.
    const author = token.startsWith('ghs_')
      ? { login: 'github-actions[bot]', type: 'Bot' }
      : { login: 'octo-pat', type: 'User' }
    if (url.pathname === '/user' && req.method === 'GET') {
      return token.startsWith('ghs_')
        ? send(403, { message: 'Resource not accessible by integration' })
        : send(200, { login: author.login, type: author.type })
    }
    const list = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname)
    if (list) {
      const issue = `${list[1]}/${list[2]}#${list[3]}`
      const comments = this.comments.get(issue) ?? []
      if (req.method === 'GET') {
        const { rows, headers } = paged(url, this.listed(comments))
        return send(200, rows, headers)
      }
      if (req.method === 'POST') {
        const made = this.made(
          this.comment(issue, (JSON.parse(body) as { body: string }).body, author.login, author.type)
        )
        this.comments.set(issue, [...comments, made])
        this.refuseIfPicked(made, issue)
        return send(201, made)
      }
    }
    const issues = /^\/repos\/([^/]+)\/([^/]+)\/issues$/.exec(url.pathname)
    if (issues) {
      const repo = `${issues[1]}/${issues[2]}`
      const all = this.issues.get(repo) ?? []
      if (req.method === 'GET') {
        const state = url.searchParams.get('state') ?? 'open'
        const sorted = this.listed(all.filter(i => state === 'all' || i.state === state)).reverse()
        const { rows, headers } = paged(url, sorted)
        return send(200, rows, headers)
      }
      if (req.method === 'POST') {
        const given = JSON.parse(body) as { title: string; body?: string }
        const made = this.made(this.seedIssue(repo, { title: given.title, body: given.body ?? '' }, author))
        this.refuseIssueIfPicked(made, repo)
        return send(201, made)
      }
    }
    const oneIssue = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)$/.exec(url.pathname)
    if (oneIssue && req.method === 'PATCH') {
      const found = (this.issues.get(`${oneIssue[1]}/${oneIssue[2]}`) ?? []).find(i => i.number === Number(oneIssue[3]))
      if (found) {
        if (this.refuseEdits || found.user.login !== author.login) {
          return send(403, { message: 'Resource not accessible by integration' })
        }
        const given = JSON.parse(body) as Partial<FakeIssue>
        const refusal = this.refusedIssues.get(`${oneIssue[1]}/${oneIssue[2]}#${found.number}`)
        const change = given.title !== undefined || given.body !== undefined ? 'edit' : 'close'
        if (refusal?.refused.includes(change)) return refuse(refusal)
        for (const field of ['title', 'body', 'state', 'state_reason'] as const) {
          if (given[field] !== undefined) Object.assign(found, { [field]: given[field] })
        }
        return send(200, found)
      }
    }
    if (/^\/repos\/[^/]+\/[^/]+\/actions\/runs\/\d+\/attempts\/\d+\/jobs$/.test(url.pathname) && req.method === 'GET') {
      return send(200, { total_count: this.jobs.length, jobs: this.jobs })
    }
    const one = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(url.pathname)
    if (one && (req.method === 'PATCH' || req.method === 'DELETE')) {
      for (const [issue, comments] of this.comments) {
        const found = comments.find(c => c.id === Number(one[3]))
        if (found) {
          // GitHub lets a token edit or delete its own comments; another author's is refused here.
          if (this.refuseEdits || found.user.login !== author.login) {
            return send(403, { message: 'Resource not accessible by integration' })
          }
          const refusal = this.refusedComments.get(found.id)
          if (refusal?.refused.includes(req.method === 'DELETE' ? 'delete' : 'edit')) return refuse(refusal)
          if (req.method === 'DELETE') {
            this.comments.set(
              issue,
              comments.filter(c => c !== found)
            )
            res.writeHead(204).end()
            return
          }
          found.body = (JSON.parse(body) as { body: string }).body
          return send(200, found)
        }
      }
    }
    send(404, { message: 'Not Found' })
  }
}
