// @ts-check
// Light or dark: the system's choice, unless the header's switch (`.theme-switch`) has chosen;
// and the board's colours (the game page's `#board-theme`). Both remembered in this browser, as
// attributes of <html> (data-theme, data-board) that style.css reads.

const root = document.documentElement;
const system = window.matchMedia('(prefers-color-scheme: dark)');

/** The board's colours, the first the default. */
export const BOARD_THEMES = ['wood', 'green', 'blue'];

function apply() {
  const chosen = localStorage.getItem('myrmidon:theme');
  root.dataset.theme = chosen === 'dark' || chosen === 'light' ? chosen : system.matches ? 'dark' : 'light';
  const board = localStorage.getItem('myrmidon:board') || '';
  root.dataset.board = BOARD_THEMES.includes(board) ? board : BOARD_THEMES[0];
  for (const b of document.querySelectorAll('.theme-switch')) b.setAttribute('aria-pressed', String(root.dataset.theme === 'dark'));
}

/** The board's colours chosen (one of BOARD_THEMES). @param {string} name */
export function setBoardTheme(name) {
  localStorage.setItem('myrmidon:board', name);
  apply();
}

system.addEventListener('change', apply);
apply();
for (const b of document.querySelectorAll('.theme-switch')) {
  b.addEventListener('click', () => {
    localStorage.setItem('myrmidon:theme', root.dataset.theme === 'dark' ? 'light' : 'dark');
    apply();
  });
}
