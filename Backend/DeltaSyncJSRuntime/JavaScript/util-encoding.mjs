// util.urlEncode, urlDecode, base64Encode, base64Decode, escapeJavaScript: the encodings of
// AppSync's utilities, which follow Java's (URLEncoder's form encoding, Commons Lang's
// escapeEcmaScript), not the browser's functions of similar names.

/** Java's URLEncoder: letters, digits and `-_.*` stay, a space is `+`, the rest is percent-encoded UTF-8. */
export function urlEncode(text) {
  return encodeURIComponent(String(text))
    .replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+');
}

/** Java's URLDecoder: `+` is a space, `%XX` sequences are UTF-8. */
export function urlDecode(text) {
  return decodeURIComponent(String(text).replace(/\+/g, ' '));
}

/** The UTF-8 bytes of `text` in standard base 64. */
export function base64Encode(text) {
  return Buffer.from(String(text), 'utf8').toString('base64');
}

/** Standard base 64 back to text, read as UTF-8. */
export function base64Decode(text) {
  return Buffer.from(String(text), 'base64').toString('utf8');
}

const ESCAPES = { '"': '\\"', "'": "\\'", '\\': '\\\\', '/': '\\/', '\b': '\\b', '\n': '\\n', '\t': '\\t', '\f': '\\f', '\r': '\\r' };

/** Commons Lang's escapeEcmaScript: quotes, backslash, slash and control characters escaped, everything outside printable ASCII as `\uXXXX`. */
export function escapeJavaScript(text) {
  let out = '';
  for (const character of String(text)) {
    const escaped = ESCAPES[character];
    if (escaped !== undefined) {
      out += escaped;
      continue;
    }
    const code = character.codePointAt(0);
    if (code >= 0x20 && code < 0x7f) {
      out += character;
    } else {
      // Outside the basic plane a character is two UTF-16 units, each escaped, as Java does.
      for (let i = 0; i < character.length; i += 1) out += '\\u' + character.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0');
    }
  }
  return out;
}
