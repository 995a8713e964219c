/**
 * The console's stylesheet and its one script, served as files (`/console/assets/…`) so the
 * pages run under a strict Content-Security-Policy (no inline script or style). The script
 * only listens to server-sent events and swaps the page's <main> for a fresh copy.
 */
export const CONSOLE_CSS = `
:root { --bg:#f6f7f9; --fg:#1d2330; --muted:#667085; --card:#fff; --line:#e4e7ec;
  --accent:#3b5bdb; --ok:#2b8a3e; --warn:#e67700; --bad:#c92a2a; --live:#1971c2; }
@media (prefers-color-scheme: dark) { :root { --bg:#12151b; --fg:#e6e8ee; --muted:#98a2b3;
  --card:#1b2029; --line:#2c3340; --accent:#91a7ff; } }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
  background:var(--bg); color:var(--fg); }
a { color:var(--accent); text-decoration:none; } a:hover { text-decoration:underline; }
header { display:flex; flex-wrap:wrap; gap:.5rem 1.25rem; align-items:center;
  padding:.75rem 1.25rem; background:var(--card); border-bottom:1px solid var(--line); }
header .brand { font-weight:700; font-size:1.05rem; color:var(--fg); }
header nav { display:flex; gap:1rem; flex:1; }
header nav a.here { font-weight:600; color:var(--fg); }
header .who { color:var(--muted); font-size:.9rem; display:flex; gap:.75rem; align-items:center; }
.dot { display:inline-block; width:.55rem; height:.55rem; border-radius:50%; background:var(--muted);
  margin-right:.3rem; } .dot.on { background:var(--ok); }
main { max-width:1200px; margin:0 auto; padding:1.25rem; }
h1 { font-size:1.35rem; margin:.25rem 0 1rem; } h2 { font-size:1.05rem; margin:1.5rem 0 .6rem; }
.card { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:1rem; }
.grid { display:grid; gap:1rem; grid-template-columns:repeat(auto-fit,minmax(210px,1fr)); }
.stat .n { font-size:1.7rem; font-weight:700; } .stat .l { color:var(--muted); font-size:.85rem; }
.stat.alert .n { color:var(--bad); }
form.filters { display:flex; flex-wrap:wrap; gap:.5rem; align-items:end; margin-bottom:1rem; }
form.filters label { display:flex; flex-direction:column; font-size:.8rem; color:var(--muted); gap:.2rem; }
input, select, button { font:inherit; padding:.4rem .6rem; border:1px solid var(--line);
  border-radius:7px; background:var(--card); color:var(--fg); }
button { cursor:pointer; } button.primary { background:var(--accent); border-color:var(--accent); color:#fff; }
button.danger { color:var(--bad); }
table { width:100%; border-collapse:collapse; background:var(--card); border:1px solid var(--line);
  border-radius:10px; overflow:hidden; }
th, td { text-align:left; padding:.55rem .7rem; border-bottom:1px solid var(--line); vertical-align:top; }
th { font-size:.78rem; text-transform:uppercase; letter-spacing:.03em; color:var(--muted); }
tr:last-child td { border-bottom:0; }
td.err { color:var(--bad); font-family:ui-monospace,monospace; font-size:.85rem; word-break:break-word; }
.muted { color:var(--muted); } .small { font-size:.85rem; }
.badge { display:inline-block; padding:.1rem .5rem; border-radius:999px; font-size:.78rem; font-weight:600;
  background:var(--line); white-space:nowrap; }
.badge.live { background:#d0ebff; color:#1864ab; } .badge.blocked { background:#fff3bf; color:#8f5b00; }
.badge.succeeded, .badge.delivered, .badge.done { background:#d3f9d8; color:#2b8a3e; }
.badge.failed, .badge.parked { background:#ffe3e3; color:#c92a2a; }
.badge.pending, .badge.processing { background:#e5dbff; color:#5f3dc4; }
.actions { display:flex; gap:.4rem; flex-wrap:wrap; } .actions form { margin:0; }
dl.facts { display:grid; grid-template-columns:max-content minmax(0,1fr); gap:.35rem 1rem; margin:0; }
dl.facts dt { color:var(--muted); }
dl.facts dd { margin:0; min-width:0; overflow-wrap:anywhere; }
h1 { overflow-wrap:anywhere; }
td { overflow-wrap:break-word; }
.links a { margin-right:.75rem; }
.empty { padding:1rem; color:var(--muted); text-align:center; }
.groups { display:flex; flex-direction:column; gap:.75rem; }
.group { display:flex; flex-direction:column; gap:.45rem; min-width:0; }
.group .err { color:var(--bad); font-family:ui-monospace,monospace; font-size:.85rem; overflow-wrap:anywhere; }
.group details > summary { cursor:pointer; color:var(--muted); font-size:.9rem; }
.group details table { margin-top:.5rem; }
table.notifications td:first-child, table.triggers td:first-child { white-space:nowrap; }
.notice { border-color:var(--ok); margin:0 0 1rem; }
a.button { display:inline-block; padding:.4rem .6rem; border:1px solid var(--line); border-radius:7px; }
.signin { max-width:420px; margin:10vh auto; text-align:center; }
.signin a.button { display:block; margin:.75rem 0; padding:.7rem; border-radius:8px;
  border:1px solid var(--line); background:var(--card); font-weight:600; }
@media (max-width: 720px) {
  main { padding:.75rem; }
  table.rows, table.rows tbody, table.rows tr, table.rows td { display:block; width:100%; }
  table.rows thead { display:none; }
  table.rows tr { border-bottom:1px solid var(--line); padding:.5rem 0; }
  table.rows td { border:0; padding:.2rem .8rem; }
  table.rows td[data-label]::before { content:attr(data-label) ": "; color:var(--muted); font-size:.8rem; }
  table.rows td:empty { display:none; }
  table.history tr, table.notifications tr, table.triggers tr { display:flex; flex-wrap:wrap;
    gap:.1rem .8rem; padding:.45rem .8rem; }
  table.history td, table.notifications td, table.triggers td { display:inline; width:auto; padding:0; }
}
`;

export const CONSOLE_JS = `
(function () {
  var dot = document.getElementById('live');
  var pending = null;
  function refresh() {
    pending = null;
    var main0 = document.querySelector('main');
    var focused = document.activeElement;
    if (main0 && focused && main0.contains(focused) && /INPUT|SELECT/.test(focused.tagName)) {
      pending = setTimeout(refresh, 1000);
      return;
    }
    fetch(location.href, { headers: { 'x-console-partial': '1' }, credentials: 'same-origin' })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (text) {
        var main = document.querySelector('main');
        if (main) { main.innerHTML = text; document.dispatchEvent(new Event('console:updated')); }
      })
      .catch(function () {});
  }
  if (!window.EventSource || !dot) return;
  var source = new EventSource('/console/events');
  source.addEventListener('open', function () { dot.classList.add('on'); dot.title = 'live'; });
  source.addEventListener('error', function () { dot.classList.remove('on'); dot.title = 'reconnecting'; });
  source.addEventListener('change', function (e) {
    var mark = document.getElementById('stamp');
    if (mark && mark.getAttribute('data-stamp') === e.data) return;
    if (pending === null) pending = setTimeout(refresh, 150);
  });
})();
`;
