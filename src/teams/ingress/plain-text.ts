/**
 * A Teams message's text as plain words: Teams sends a person's message as HTML-ish text
 * (`<p>`, `<br>`, `<at>name</at>` for mentions, entities). Line breaks are kept, tags go,
 * the five XML entities and `&nbsp;` are decoded; nothing else is interpreted.
 */
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

export function plainTextOf(html: string): string {
  return html
    .replace(/\r\n?/g, '\n')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(?:p|div|li|h[1-6])>/gi, '\n')
    .replace(/<at>([^<]*)<\/at>/gi, '@$1')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d{1,6}|#x[0-9a-f]{1,6}|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) {
        const code = Number.parseInt(name.slice(2), 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      if (name.startsWith('#')) {
        const code = Number(name.slice(1));
        return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\n{3,}/g, '\n\n');
}
