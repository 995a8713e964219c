import { escapeHtmlText } from '../core/ingress/security-headers.js';

/**
 * HTML built from tagged templates: every interpolated value is escaped unless it is
 * already `Html` (a fragment built the same way), so service and user text can never
 * become markup.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = Html | string | number | undefined | null | false | readonly Part[];

/** The one HTML escaper (core/ingress/security-headers.ts), under the console's name. */
export const escapeHtml = escapeHtmlText;

function render(part: Part): string {
  if (part === undefined || part === null || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}
