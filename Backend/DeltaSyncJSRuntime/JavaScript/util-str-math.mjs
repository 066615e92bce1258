// util.str and util.math: string case, replacement and Unicode normalization; rounding,
// minimum, maximum and random numbers.

export const str = {
  toUpper: (text) => String(text).toUpperCase(),
  toLower: (text) => String(text).toLowerCase(),
  /** Every occurrence of `find` replaced, as Java's String.replace does (no pattern). */
  toReplace: (text, find, replacement) => String(text).split(String(find)).join(String(replacement)),
  /** `nfc`, `nfd`, `nfkc` or `nfkd`, in either case. */
  normalize: (text, form) => {
    const name = String(form).toUpperCase();
    if (!['NFC', 'NFD', 'NFKC', 'NFKD'].includes(name)) throw new Error(`util.str.normalize: '${form}' is not nfc, nfd, nfkc or nfkd`);
    return String(text).normalize(name);
  },
};

export const math = {
  /** Rounded half up to a whole number, as Java's Math.round. */
  roundNum: (value) => Math.floor(Number(value) + 0.5),
  minVal: (a, b) => Math.min(Number(a), Number(b)),
  maxVal: (a, b) => Math.max(Number(a), Number(b)),
  randomDouble: () => Math.random(),
  /** A whole number from `low` to `high`, both included. */
  randomWithinRange: (low, high) => {
    const from = Math.trunc(Number(low)), to = Math.trunc(Number(high));
    if (!(from <= to)) throw new Error(`util.math.randomWithinRange: the low end ${low} is above the high end ${high}`);
    return from + Math.floor(Math.random() * (to - from + 1));
  },
};
