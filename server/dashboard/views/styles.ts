/** The dashboard's one stylesheet, inlined with the page's nonce: nothing is loaded from elsewhere. */
export const styles = `
:root { color-scheme: light; --ink: #14213d; --muted: #4a5568; --line: #c3cad6; --accent: #0b5cad; --ok: #146c2e; --bad: #a4161a; --bg: #f4f6fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #ffb703; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: 0; }
.mode { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem; padding: .6rem 1rem; font-weight: 700; }
.mode-test { background: #ffd166; color: #3d2c00; border-bottom: 4px solid #b7791f; }
.mode-live { background: #7f1d1d; color: #fff; border-bottom: 4px solid #3f0d0d; }
.mode-live a { color: #fff; }
.mode-test a { color: #3d2c00; }
.mode .switch { padding: .3rem .7rem; border: 2px solid currentColor; border-radius: 6px; text-decoration: none; }
.top { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem; padding: .6rem 1rem; background: #fff; border-bottom: 1px solid var(--line); }
.top .who { color: var(--muted); }
.top form { display: inline; }
nav ul { list-style: none; display: flex; gap: .25rem; margin: 0; padding: .4rem 1rem; overflow-x: auto; background: #fff; border-bottom: 1px solid var(--line); }
nav a { display: block; padding: .45rem .7rem; border-radius: 6px; text-decoration: none; white-space: nowrap; }
nav a[aria-current=page] { background: var(--accent); color: #fff; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 1rem; margin-bottom: 1rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 1rem; }
.figure { font-size: 1.6rem; font-weight: 700; margin: .2rem 0; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .85rem; color: var(--muted); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .mono, td a, dd, .flash, li { overflow-wrap: anywhere; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .9em; }
.badge { white-space: nowrap; display: inline-block; padding: .05rem .45rem; border-radius: 999px; font-size: .8rem; font-weight: 600; background: #e2e8f0; color: #1a202c; }
.badge-success, .badge-succeeded, .badge-active, .badge-enabled { background: #d4f0dc; color: #0f4d22; }
.badge-failed, .badge-revoked, .badge-expired, .badge-disabled { background: #fde2e1; color: #7a1013; }
.badge-pending, .badge-initiated, .badge-expiring { background: #fff1c2; color: #5c4300; }
form.filters { display: flex; flex-wrap: wrap; gap: .6rem; align-items: flex-end; margin-bottom: 1rem; }
label { display: block; font-weight: 600; font-size: .9rem; margin-bottom: .2rem; }
input, select, textarea { font: inherit; padding: .45rem .55rem; border: 2px solid #7a869a; border-radius: 6px; background: #fff; color: var(--ink); max-width: 100%; }
input[type=checkbox] { width: 1.1rem; height: 1.1rem; }
.field { margin-bottom: .8rem; }
.check { display: flex; align-items: center; gap: .4rem; font-weight: 400; }
fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 .8rem; }
button, .button { max-width: 100%; display: inline-block; font: inherit; font-weight: 600; padding: .5rem .9rem; border: 0; border-radius: 6px; background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; }
button.secondary, .button.secondary { background: #fff; color: var(--accent); border: 2px solid var(--accent); }
button.danger { background: var(--bad); }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-end; }
.actions form { margin: 0; }
.flash { padding: .7rem 1rem; border-radius: 8px; margin-bottom: 1rem; font-weight: 600; }
.flash-ok { background: #d4f0dc; color: #0f4d22; }
.flash-error { background: #fde2e1; color: #7a1013; }
.secret { background: #fff8e1; border: 2px solid #b7791f; border-radius: 8px; padding: 1rem; margin-bottom: 1rem; }
.secret input { width: 100%; font-family: ui-monospace, Menlo, Consolas, monospace; }
.muted { color: var(--muted); }
pre { overflow-x: auto; }
textarea { width: 100%; }
.nowrap { white-space: nowrap; }
.pager { display: flex; gap: 1rem; margin: 1rem 0; }
.timeline { list-style: none; padding: 0; margin: 0; border-left: 3px solid var(--line); }
.timeline li { margin: 0 0 .8rem; padding-left: .8rem; }
.chart svg { width: 100%; height: auto; max-height: 16rem; }
.legend { display: flex; gap: 1rem; font-size: .9rem; }
.swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .3rem; vertical-align: middle; }
.swatch-payments { background: #0b5cad; }
.swatch-payouts { background: #9c5f00; }
.auth { max-width: 26rem; margin: 3rem auto; }
.search { display: flex; gap: .4rem; padding: .5rem 1rem; background: #fff; border-bottom: 1px solid var(--line); }
.search input { flex: 1; min-width: 0; max-width: 28rem; }
.languages a { padding: .3rem .5rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.auth input { width: 100%; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; margin: 0; }
dl.facts dt { font-weight: 600; color: var(--muted); }
dl.facts dd { margin: 0; word-break: break-word; }
footer { max-width: 72rem; margin: 0 auto; padding: 1rem; color: var(--muted); font-size: .85rem; }
@media (max-width: 40rem) {
  main { padding: .6rem; }
  th, td { padding: .35rem .4rem; }
  .hide-phone { display: none; }
}
`;
