import { describe, expect, it } from '@jest/globals'
import { collectionOf, parseLinkNext } from '../../src/api/pagination.js'
import { httpError, serverMessageOf } from '../../src/api/errors.js'

describe('serverMessageOf', () => {
  it.each([
    ['{"error": {"message": "bad url"}}', 'bad url'],
    ['{"error": "bad url"}', 'bad url'],
    ['{"message": "bad url"}', 'bad url'],
    ['{"errors": [{"message": "a"}, "b"]}', 'a; b'],
    ['{"errors": [{"field": "url"}]}', '{"field":"url"}'],
    ['{"detail": "nope"}', 'nope'],
    ['"just a string"', 'just a string'],
    ['plain text failure', 'plain text failure'],
    ['<html><title>503 Service Unavailable</title></html>', '503 Service Unavailable'],
    ['', undefined]
  ])('%s -> %s', (body, message) => expect(serverMessageOf(body)).toBe(message))

  it('cuts long bodies to a few hundred characters', () => {
    expect(serverMessageOf('x'.repeat(5000))?.length).toBeLessThanOrEqual(303)
  })
})

describe('httpError', () => {
  it('names method, path, status and message; 401 says where keys are', () => {
    expect(httpError('GET', '/checks', 404, '{"error":{"message":"no"}}').message).toBe(
      'GET /checks failed: HTTP 404 Not Found: no'
    )
    expect(httpError('GET', '/checks', 401, '').message).toContain('under "API access"')
  })
})

describe('collections', () => {
  it('accepts bare arrays and data/items/results envelopes', () => {
    expect(collectionOf([1])).toEqual([1])
    expect(collectionOf({ data: [1] })).toEqual([1])
    expect(collectionOf({ items: [2] })).toEqual([2])
    expect(collectionOf({ results: [3] })).toEqual([3])
    expect(collectionOf({ data: {} })).toBeUndefined()
  })

  it('finds rel="next" in a Link header', () => {
    expect(parseLinkNext('<https://a/v1/checks?page=2>; rel="next", <https://a/v1/checks?page=9>; rel="last"')).toBe(
      'https://a/v1/checks?page=2'
    )
    expect(parseLinkNext('<https://a/p1>; rel="prev"')).toBeUndefined()
    expect(parseLinkNext('</v1/checks?page=3>; rel=next')).toBe('/v1/checks?page=3')
    expect(parseLinkNext(undefined)).toBeUndefined()
  })
})
