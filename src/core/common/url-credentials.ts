/**
 * A URL's user name and password hidden wherever a URL is shown (`agent config`, an error): a
 * person who pasted `http://user:secret@host` must not see the secret echoed into a terminal, a
 * log or a screenshot. Works on text, not only on URLs that parse: a malformed one is shown too.
 */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/?#\\\s]*@/giu;

export function maskUrlCredentials(text: string): string {
  return text.replace(USERINFO, "$1***@");
}
