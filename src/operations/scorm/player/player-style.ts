// The SCORM player page's style sheet (GET /api/scorm/runtime/player.css): a file, like its script,
// so the page's Content-Security-Policy allows only this origin's styles.
export const PLAYER_STYLE = `body{font-family:system-ui,sans-serif;margin:0;color:#222;background:#f6f7f9}
header{background:#1f3a5f;color:#fff;padding:.8rem 1.2rem}header a{color:#fff}header h1{margin:0;font-size:1.3rem}header p{margin:.2rem 0 0;opacity:.85}
main{max-width:60rem;margin:1rem auto;padding:0 1rem}
#status{padding:.6rem .8rem;background:#fff;border-left:4px solid #1f3a5f;margin:1rem 0}#status.error{border-color:#b00020;color:#b00020}
button{padding:.5rem 1rem;margin:.2rem .4rem .2rem 0;border:1px solid #1f3a5f;background:#1f3a5f;color:#fff;border-radius:4px;cursor:pointer}
#actions input{padding:.45rem;min-width:20rem;margin:.2rem .4rem .2rem 0}
td button{background:#fff;color:#1f3a5f;padding:.25rem .6rem}
table{border-collapse:collapse;width:100%;background:#fff;margin-top:1rem}th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #ddd}
form label{display:block;margin-top:.8rem}form input{width:100%;max-width:20rem;padding:.4rem}
#player{position:fixed;inset:0;display:flex;flex-direction:column;background:#fff}#player[hidden]{display:none}
#player .bar{display:flex;align-items:center;gap:1rem;padding:.4rem 1rem;background:#1f3a5f;color:#fff}#player .bar button{background:#fff;color:#1f3a5f}#player-status.error{background:#b00020;color:#fff;padding:.2rem .6rem;border-radius:4px}
#sco{flex:1;border:0;width:100%}
`;
