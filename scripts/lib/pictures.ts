/**
 * The job summaries of the demo's stories as a page of the docs
 * (docs/pictures.md): what a user sees after each step, as the demo ran it.
 * `npm run demo -- --write-pictures` writes the page; a test runs the demo
 * again and fails when the page no longer has the same shape (the same steps,
 * lines and tables, with the numbers, ids and times of another run).
 */
export const PICTURES_PATH = 'docs/pictures.md'

export interface Picture {
  story: string
  step: string
  summary: string
}

export function renderPictures(pictures: Picture[]): string {
  const out = [
    '# What the job summaries look like',
    '',
    '<!-- Written by `npm run demo -- --write-pictures`; a test fails when it is stale. -->',
    '',
    'Each step of `npm run demo` (the three stories, run by the bundled action against the emulator),',
    'with the job summary it wrote, as GitHub shows it on the run page.'
  ]
  let story = ''
  for (const p of pictures) {
    if (p.story !== story) {
      story = p.story
      out.push('', `## ${story}`)
    }
    // Each summary is quoted, so its own headings stay inside the step.
    out.push(
      '',
      `### ${p.step}`,
      '',
      ...p.summary
        .trim()
        .split('\n')
        .map(line => (line ? `> ${line}` : '>'))
    )
  }
  return out.join('\n') + '\n'
}

/**
 * What stays the same from one run to the next: ids, times, numbers, poll
 * timelines (and the legend's mark for a result from before the step) and
 * sparklines made neutral.
 */
export function shapeOf(markdown: string): string[] {
  return markdown
    .split('\n')
    .map(line =>
      line
        .replace(/\b([a-z]{2,5})\\?_[0-9a-f]{6,}\b/g, '$1_ID')
        .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, 'TIME')
        .replace(/\d+ (s|min|h|d) ago \(\d{2}:\d{2}:\d{2} UTC\)/g, 'AGO')
        // Whether a poll saw the result from before the step depends on when the service probed.
        .replace(/, ⏮ before the step\)/g, ')')
        .replace(/[✅❌↺⏮]+/g, 'MARKS')
        .replace(/[▁▂▃▄▅▆▇█]+/g, 'TREND')
        .replace(/127\.0\.0\.1:\d+/g, 'HOST')
        .replace(/\d+(\.\d+)?/g, 'N')
        .replace(/ +/g, ' ')
    )
    .filter(line => line.trim() !== '')
}
