/**
 * Profiles: a service like yours, by name. The API document leaves how lists
 * page, whether totals are stated, the rate-limit headers, `createdAt`, the
 * form of times, the history's order, PUT and the envelope unsaid; each
 * profile is one answer to one of those, so `check-api` can be tried (and
 * tested) against each, and a workflow against a service like the user's
 * (`npm run emulator -- --profile link-pages,no-created-at`). Without a
 * profile the emulator answers as docs/emulator.md says.
 */
import type { CollectionStyle } from './paging.js'
import type { RateHeaderForm } from './rate-limit.js'
import type { Views } from './views.js'

/** What a profile sets: server options (the data's rules, the pages, the headers) and views (how answers are shown). */
export interface ProfileSettings {
  collectionStyle?: CollectionStyle
  putSemantics?: 'replace' | 'merge'
  rateLimitHeaders?: boolean
  rateHeaderForm?: RateHeaderForm
  createdAt?: boolean
  views?: Partial<Views>
}

/** Every profile: what it makes the service do (the --help text) and its settings. */
export const PROFILES: Record<string, { says: string; sets: ProfileSettings }> = {
  'link-pages': {
    says: 'lists are bare arrays; the next page is in a Link header',
    sets: { collectionStyle: 'bare' }
  },
  'cursor-pages': {
    says: 'lists are {"data", "next_cursor"}; the next page is ?cursor=',
    sets: { collectionStyle: 'cursor' }
  },
  'stated-total': {
    says: 'lists state their size (meta.total, total beside a cursor, X-Total-Count on a bare array)',
    sets: { views: { statedTotal: true } }
  },
  'no-rate-headers': { says: 'no rate-limit headers (the 429 keeps Retry-After)', sets: { rateLimitHeaders: false } },
  'ratelimit-reset-epoch': {
    says: 'only X-RateLimit-Limit/Remaining/Reset, the reset a Unix time in seconds',
    sets: { rateHeaderForm: 'x-ratelimit' }
  },
  'ratelimit-reset-seconds': {
    says: 'only RateLimit-Limit/Remaining/Reset, the reset in seconds from now',
    sets: { rateHeaderForm: 'ratelimit' }
  },
  'no-created-at': { says: 'resources carry no createdAt or updatedAt', sets: { createdAt: false } },
  seconds: { says: 'times in whole seconds (2026-11-24T03:30:00Z)', sets: { views: { wholeSecondTimes: true } } },
  'offset-times': {
    says: 'times in another zone (2026-11-24T05:30:00.000+02:00)',
    sets: { views: { offsetTimes: true } }
  },
  'zoneless-times': {
    says: 'times without a zone (2026-11-24T03:30:00.000, meaning UTC)',
    sets: { views: { zonelessTimes: true } }
  },
  'history-oldest-first': {
    says: "a check's history lists its oldest entry first",
    sets: { views: { historyOldestFirst: true } }
  },
  'merge-put': { says: 'PUT merges the fields sent into the resource', sets: { putSemantics: 'merge' } },
  'bare-objects': {
    says: 'one resource is answered as the bare object, without {"data": ...}',
    sets: { views: { bareObjects: true } }
  }
}

/** Unknown profile names in `names` (a user's typo), in order. */
export function unknownProfiles(names: readonly string[]): string[] {
  return names.filter(name => !Object.hasOwn(PROFILES, name))
}

/**
 * The settings of `names` together, later profiles over earlier ones (views
 * merged). An unknown name throws, naming the known ones.
 */
export function profileSettings(names: readonly string[]): ProfileSettings {
  const unknown = unknownProfiles(names)
  if (unknown.length > 0) {
    throw new Error(`unknown profile ${unknown.join(', ')}: the profiles are ${Object.keys(PROFILES).join(', ')}`)
  }
  let settings: ProfileSettings = {}
  for (const name of names) {
    const { views, ...options } = PROFILES[name].sets
    settings = { ...settings, ...options, views: { ...settings.views, ...views } }
  }
  return settings
}
