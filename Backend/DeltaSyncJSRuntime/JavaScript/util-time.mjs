// util.time: the server's clock (invocation.now) and Java DateTimeFormatter patterns, which
// AppSync's time utilities take (`yyyy-MM-dd HH:mm:ssZ`), with a zone id (`America/New_York`)
// or an offset (`+08:00`). Pattern letters: G y u M L d D E a h H k K m s S Z X x z O V,
// 'quoted text' ('' for a quote) and [optional sections]; English names.
import { invocation } from './invocation.mjs';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const LETTERS = new Set('GyuMLdDEahHkKmsSZXxzOV');

function fail(message) {
  throw new Error(`util.time: ${message}`);
}

// MARK: - Zones

const zoneFormats = new Map();

/** The zone's offset from UTC at `epochMs`, in minutes (east positive). */
function offsetMinutes(zone, epochMs) {
  if (zone === undefined || zone === null || zone === '' || zone === 'Z' || zone === 'UTC' || zone === 'GMT') return 0;
  const fixed = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(String(zone));
  if (fixed) return (fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3] ?? 0));
  let format = zoneFormats.get(zone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: String(zone), hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
        hour: 'numeric', minute: 'numeric', second: 'numeric',
      });
    } catch {
      fail(`'${zone}' is not a time zone: give a zone id such as America/New_York or an offset such as +08:00`);
    }
    zoneFormats.set(zone, format);
  }
  const parts = {};
  for (const part of format.formatToParts(new Date(epochMs))) parts[part.type] = Number(part.value);
  const local = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return Math.round((local - Math.floor(epochMs / 1000) * 1000) / 60000);
}

function offsetText(minutes, separator, allowZ, withMinutes = true) {
  if (minutes === 0 && allowZ) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
  const rest = String(Math.abs(minutes) % 60).padStart(2, '0');
  return withMinutes || rest !== '00' ? `${sign}${hours}${separator}${rest}` : `${sign}${hours}`;
}

// MARK: - Patterns

/** The pattern as tokens: `{letter, count}`, `{text}` or `{optional: tokens}`. */
function tokens(pattern) {
  const text = String(pattern);
  let index = 0;
  function read(nested) {
    const out = [];
    while (index < text.length) {
      const character = text[index];
      index += 1;
      if (character === "'") {
        let literal = '';
        for (;;) {
          if (index >= text.length) fail(`the pattern '${text}' has a quote without its closing quote`);
          const next = text[index];
          index += 1;
          if (next === "'") {
            if (text[index] === "'") { literal += "'"; index += 1; continue; }
            break;
          }
          literal += next;
        }
        out.push({ text: literal === '' ? "'" : literal });
      } else if (character === '[') {
        out.push({ optional: read(true) });
      } else if (character === ']') {
        if (!nested) fail(`the pattern '${text}' closes an optional section it never opened`);
        return out;
      } else if (/[A-Za-z]/.test(character)) {
        if (!LETTERS.has(character)) fail(`the pattern letter '${character}' is not one of Java's DateTimeFormatter letters that DeltaSync formats (pattern '${text}')`);
        let count = 1;
        while (text[index] === character) { count += 1; index += 1; }
        out.push({ letter: character, count });
      } else {
        out.push({ text: character });
      }
    }
    if (nested) fail(`the pattern '${text}' opens an optional section it never closes`);
    return out;
  }
  return read(false);
}

function pad(number, width) {
  const digits = String(Math.abs(number)).padStart(width, '0');
  return number < 0 ? '-' + digits : digits;
}

function zoneName(zone, epochMs, long) {
  if (zone === undefined || zone === null || zone === '' || zone === 'UTC' || zone === 'Z') return long ? 'Coordinated Universal Time' : 'UTC';
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: String(zone), timeZoneName: long ? 'long' : 'short' }).formatToParts(new Date(epochMs));
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? String(zone);
  } catch {
    return String(zone);
  }
}

function formatField(token, fields, zone, epochMs) {
  const { letter, count } = token;
  const name = (full) => (count === 4 ? full : count === 5 ? full[0] : full.slice(0, 3));
  switch (letter) {
    case 'G': return count === 4 ? 'Anno Domini' : count === 5 ? 'A' : 'AD';
    case 'y': case 'u': return count === 2 ? pad(Math.abs(fields.year) % 100, 2) : pad(fields.year, count);
    case 'M': case 'L': return count >= 3 ? name(MONTHS[fields.month - 1]) : pad(fields.month, count);
    case 'd': return pad(fields.day, count);
    case 'D': return pad(fields.dayOfYear, count);
    case 'E': return count >= 4 ? name(DAYS[fields.weekday]) : DAYS[fields.weekday].slice(0, 3);
    case 'a': return fields.hour < 12 ? 'AM' : 'PM';
    case 'H': return pad(fields.hour, count);
    case 'h': return pad(fields.hour % 12 === 0 ? 12 : fields.hour % 12, count);
    case 'k': return pad(fields.hour === 0 ? 24 : fields.hour, count);
    case 'K': return pad(fields.hour % 12, count);
    case 'm': return pad(fields.minute, count);
    case 's': return pad(fields.second, count);
    case 'S': return String(fields.millisecond).padStart(3, '0').padEnd(count, '0').slice(0, count);
    case 'Z':
      if (count === 4) return fields.offset === 0 ? 'GMT' : 'GMT' + offsetText(fields.offset, ':', false);
      return count === 5 ? offsetText(fields.offset, ':', true) : offsetText(fields.offset, '', false);
    case 'X': case 'x': {
      const allowZ = letter === 'X';
      if (count === 1) return offsetText(fields.offset, '', allowZ, false);
      return offsetText(fields.offset, count % 2 === 0 ? '' : ':', allowZ);
    }
    case 'O': {
      if (fields.offset === 0) return 'GMT';
      const hours = Math.floor(Math.abs(fields.offset) / 60);
      const minutes = Math.abs(fields.offset) % 60;
      const sign = fields.offset < 0 ? '-' : '+';
      if (count === 4) return `GMT${sign}${pad(hours, 2)}:${pad(minutes, 2)}`;
      return `GMT${sign}${hours}${minutes ? ':' + pad(minutes, 2) : ''}`;
    }
    case 'z': return zoneName(zone, epochMs, count >= 4);
    case 'V': return zone === undefined || zone === null || zone === '' ? 'UTC' : String(zone);
    default: return '';
  }
}

function format(epochMs, pattern, zone) {
  const epoch = Number(epochMs);
  if (!Number.isFinite(epoch)) fail(`${epochMs} is not a number of epoch milliseconds`);
  const offset = offsetMinutes(zone, epoch);
  const local = new Date(epoch + offset * 60000);
  const yearStart = Date.UTC(local.getUTCFullYear(), 0, 1);
  const fields = {
    year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate(),
    dayOfYear: Math.floor((Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - yearStart) / 86400000) + 1,
    weekday: local.getUTCDay(), hour: local.getUTCHours(), minute: local.getUTCMinutes(), second: local.getUTCSeconds(),
    millisecond: local.getUTCMilliseconds(), offset,
  };
  const render = (list) => list.map((token) => {
    if (token.text !== undefined) return token.text;
    if (token.optional) return render(token.optional);
    return formatField(token, fields, zone, epoch);
  }).join('');
  return render(tokens(pattern));
}

// MARK: - Parsing

const NUMERIC_WIDTH = { M: 2, L: 2, d: 2, D: 3, H: 2, h: 2, k: 2, K: 2, m: 2, s: 2 };

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A regular expression for the pattern, and for each group the field it fills. */
function parser(pattern) {
  const groups = [];
  const build = (list) => list.map((token) => {
    if (token.text !== undefined) return escapeRegExp(token.text);
    if (token.optional) return `(?:${build(token.optional)})?`;
    const { letter, count } = token;
    let source;
    if (letter === 'y' || letter === 'u') source = count === 2 ? '(\\d{2})' : '([+-]?\\d{4,9})';
    else if ((letter === 'M' || letter === 'L') && count >= 3) source = `(${MONTHS.map((m) => (count === 4 ? m : m.slice(0, 3))).join('|')})`;
    else if (letter === 'E') source = `(?:${DAYS.map((d) => (count >= 4 ? d : d.slice(0, 3))).join('|')})`;
    else if (letter === 'a') source = '(AM|PM|am|pm)';
    else if (letter === 'S') source = `(\\d{${count}})`;
    else if ('ZXxO'.includes(letter)) source = '(Z|GMT|UTC|(?:GMT|UTC)?[+-]\\d{1,2}(?::?\\d{2})?)';
    else if (letter === 'z' || letter === 'V') source = '([A-Za-z_][A-Za-z0-9_/+\\-]*)';
    else if (letter === 'G') source = '(?:AD|Anno Domini|A)';
    else source = count === 1 ? `(\\d{1,${NUMERIC_WIDTH[letter]}})` : `(\\d{${count}})`;
    if (source.startsWith('(') && !source.startsWith('(?:')) groups.push(token);
    return source;
  }).join('');
  return { expression: new RegExp(`^${build(tokens(pattern))}$`), groups };
}

function parse(text, pattern, zone) {
  const { expression, groups } = parser(pattern);
  const match = expression.exec(String(text));
  if (!match) fail(`'${text}' does not match the pattern '${pattern}'`);
  const fields = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, millisecond: 0, pm: null, offset: null, zone: null };
  groups.forEach((token, i) => {
    const value = match[i + 1];
    if (value === undefined) return;
    switch (token.letter) {
      case 'y': case 'u': fields.year = token.count === 2 ? 2000 + Number(value) : Number(value); break;
      case 'M': case 'L': fields.month = token.count >= 3 ? MONTHS.findIndex((m) => m.startsWith(value)) + 1 : Number(value); break;
      case 'd': fields.day = Number(value); break;
      case 'D': fields.dayOfYear = Number(value); break;
      case 'H': case 'k': fields.hour = Number(value) % 24; break;
      case 'h': case 'K': fields.hour = Number(value) % 12; break;
      case 'm': fields.minute = Number(value); break;
      case 's': fields.second = Number(value); break;
      case 'S': fields.millisecond = Math.round(Number('0.' + value) * 1000); break;
      case 'a': fields.pm = value.toUpperCase() === 'PM'; break;
      case 'z': case 'V': fields.zone = value; break;
      default: fields.offset = value === 'Z' || value === 'GMT' || value === 'UTC' ? 0 : offsetMinutes(value.replace(/^(GMT|UTC)/, ''), 0);
    }
  });
  if (fields.pm) fields.hour += 12;
  const local = fields.dayOfYear !== undefined
    ? Date.UTC(fields.year, 0, fields.dayOfYear, fields.hour, fields.minute, fields.second, fields.millisecond)
    : Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second, fields.millisecond);
  if (fields.offset !== null) return local - fields.offset * 60000;
  const named = fields.zone ?? zone;
  // The zone's offset at the local time read as UTC, then again at the instant that gives:
  // right everywhere except in the hour a clock change skips or repeats.
  const first = local - offsetMinutes(named, local) * 60000;
  return local - offsetMinutes(named, first) * 60000;
}

// MARK: - util.time

function milliseconds(value, what) {
  const number = Number(value);
  if (value === null || value === undefined || !Number.isFinite(number)) fail(`${what} needs epoch milliseconds, not ${value}`);
  return number;
}

export const time = {
  nowISO8601: () => new Date(invocation.now).toISOString(),
  nowEpochSeconds: () => Math.floor(invocation.now / 1000),
  nowEpochMilliSeconds: () => invocation.now,
  nowFormatted: (pattern, zone) => format(invocation.now, pattern, zone),
  parseFormattedToEpochMilliSeconds: (text, pattern, zone) => parse(text, pattern, zone),
  parseISO8601ToEpochMilliSeconds: (text) => {
    const value = Date.parse(String(text));
    if (Number.isNaN(value)) fail(`'${text}' is not an ISO 8601 date and time`);
    return value;
  },
  epochMilliSecondsToSeconds: (epoch) => Math.floor(milliseconds(epoch, 'epochMilliSecondsToSeconds') / 1000),
  epochMilliSecondsToISO8601: (epoch) => new Date(milliseconds(epoch, 'epochMilliSecondsToISO8601')).toISOString(),
  epochMilliSecondsToFormatted: (epoch, pattern, zone) => format(milliseconds(epoch, 'epochMilliSecondsToFormatted'), pattern, zone),
};
