/** Whether `value` is one of `list`'s, and so of its type: `list.includes` without a cast. */
export const isOneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  list.some((item) => item === value);
