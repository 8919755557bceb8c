/** A clock for the pacer's unit tests: time moves only when a sleep asks it to, at once. */
export function fakeClock() {
  let t = 0
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms
    },
    get time() {
      return t
    }
  }
}

export type FakeClock = ReturnType<typeof fakeClock>
