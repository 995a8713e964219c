/**
 * A link in text we did not write keeps its label only when the label does not pretend to be
 * somewhere: a label that reads like an address (`https://…`, `github.com/…`, `www.…`) or a
 * pull request or issue (`#12`, `owner/repo#12`, `PR 12`) must name where the link goes, or
 * the link shows its real address instead. So the agent's words cannot show "octo/app#12"
 * and send the reader elsewhere.
 */

/**
 * A label that reads like an address: a scheme, `www.`, or a host with a path (`github.com/…`;
 * a file name such as `README.md` alone is no address).
 */
const ADDRESS_LIKE = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.|[a-z0-9-]+(?:\.[a-z0-9-]+)+\/)/i;
/** A label that reads like a pull request or issue: `#12`, `owner/repo#12`, `PR 12`, `pull/12`. */
const REFERENCE_LIKE =
  /^(?:(?<repo>[\w.-]+\/[\w.-]+)?#(?<n>\d+)|(?:PR|pull request|issue|pull)\s*[#/]?\s*(?<m>\d+))$/i;

/** `https://Host/path/` -> `host/path` (no scheme, `www.`, query, fragment or trailing slash). */
function placeOf(address: string): string | undefined {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `https://${address}`);
    const host = url.hostname.toLowerCase().replace(/^www\./, '');
    return `${host}${url.pathname.replace(/\/+$/, '')}`.toLowerCase();
  } catch {
    return undefined;
  }
}

/** The label to show for a link to `href`: the label itself, or `href` when it misleads. */
export function honestLabel(label: string, href: string): string {
  const shown = label.trim();
  if (ADDRESS_LIKE.test(shown)) {
    const said = placeOf(shown);
    const real = placeOf(href);
    return said !== undefined && said === real ? label : href;
  }
  const ref = REFERENCE_LIKE.exec(shown)?.groups;
  if (ref) {
    const number = ref.n ?? ref.m;
    const real = placeOf(href) ?? '';
    const target = /^github\.com\/([\w.-]+\/[\w.-]+)\/(?:pull|issues)\/(\d+)(?:\/|$)/.exec(real);
    const sameRepo = ref.repo === undefined || target?.[1] === ref.repo.toLowerCase();
    return target !== null && target[2] === number && sameRepo ? label : href;
  }
  return label;
}
