/**
 * The app's one HTML page: a dark neon frame with the menu bar, the game stage and the HUD; the
 * bundle at `/main.js` fills them in.
 */

const STYLE = `
:root { color-scheme: dark; --cyan: #23f0ff; --magenta: #ff2bd6; --yellow: #ffe45e; --red: #ff4d6d; --green: #4dff91; --violet: #9b6bff; }
* { box-sizing: border-box; }
body { margin: 0; background: #03040b; color: #e8f1ff; font: 14px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
#bar { display: flex; align-items: center; gap: 18px; padding: 10px 16px; border-bottom: 1px solid #1b1f4a; }
#bar h1 { margin: 0; font-size: 20px; letter-spacing: 4px; color: var(--cyan); text-shadow: 0 0 6px var(--cyan), 0 0 18px var(--cyan); }
#bar nav { display: flex; gap: 8px; }
button { background: transparent; color: var(--cyan); border: 1px solid var(--cyan); border-radius: 4px; padding: 5px 12px; font: inherit; cursor: pointer; box-shadow: 0 0 6px #23f0ff55; }
button.active { background: #23f0ff22; color: #fff; box-shadow: 0 0 10px var(--cyan); }
.status { margin-left: auto; padding: 3px 10px; border-radius: 10px; border: 1px solid currentColor; font-size: 12px; }
.status.online { color: var(--green); } .status.offline { color: var(--red); } .status.connecting { color: var(--yellow); }
#main { display: flex; gap: 14px; padding: 14px; align-items: flex-start; }
#stage { flex: 1 1 auto; min-width: 0; border: 1px solid #1b1f4a; box-shadow: 0 0 24px #9b6bff33; }
#stage canvas { display: block; }
#hud { flex: 0 0 360px; display: flex; flex-direction: column; gap: 6px; }
#hud h2 { margin: 8px 0 0; font-size: 11px; letter-spacing: 2px; text-transform: uppercase; color: var(--violet); }
form.command { display: flex; gap: 6px; }
form.command input { flex: 1; background: #070a1c; color: #fff; border: 1px solid var(--magenta); border-radius: 4px; padding: 8px; font: inherit; box-shadow: 0 0 8px #ff2bd655; }
button.mic.listening { color: var(--red); border-color: var(--red); }
.hint { margin: 0; color: #8891c9; font-size: 12px; }
.last-call { min-height: 74px; padding: 8px; border: 1px solid #1b1f4a; border-radius: 4px; }
.last-call.ok { border-color: var(--green); box-shadow: 0 0 8px #4dff9144; }
.last-call.refused { border-color: var(--red); }
.last-call .call { font-size: 18px; color: var(--yellow); text-shadow: 0 0 6px #ffe45e88; }
.last-call .query, .last-call .meta { color: #8891c9; font-size: 12px; }
.heads, .live-heads { display: flex; flex-wrap: wrap; gap: 4px; min-height: 22px; }
.head { padding: 1px 6px; border: 1px solid #2b3170; border-radius: 3px; font-size: 12px; }
.head b { color: var(--magenta); font-weight: normal; }
.live-heads .agent { color: var(--cyan); margin-right: 4px; }
table.agents { border-collapse: collapse; font-size: 12px; }
table.agents th, table.agents td { padding: 2px 8px 2px 0; text-align: left; }
table.agents th { color: #8891c9; font-weight: normal; }
table.agents td.hz { color: var(--green); }
ol.feed { margin: 0; padding: 0; list-style: none; font-size: 12px; }
ol.feed li { display: flex; gap: 8px; }
ol.feed .agent { color: var(--cyan); width: 70px; } ol.feed .call { flex: 1; } ol.feed .ms { color: #8891c9; }
ol.feed li.refused .call { color: var(--red); text-decoration: line-through; }
`;

/** The page, with the bundle loaded as a module. */
export function arenaPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Neon Arena · rtool</title>
<style>${STYLE}</style>
</head>
<body>
<header id="bar"></header>
<div id="main"><div id="stage"></div><aside id="hud"></aside></div>
<script type="module" src="/main.js"></script>
</body>
</html>
`;
}
